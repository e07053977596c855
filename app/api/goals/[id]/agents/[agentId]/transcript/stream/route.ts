import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { transcriptAgent, transcriptEntries } from "@/lib/domain/runner/transcript";
import { idParam, ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

const query = z.object({ after: z.coerce.number().int().min(0).default(0) });

// GET /api/goals/:id/agents/:agentId/transcript/stream?after=SEQ – Server-Sent Events: `entry` (one
// transcript entry) as it is recorded, after the cursor. Woken by the goal's bus topic, as the goal stream.
export const GET = ownerRoute<{ id: string; agentId: string }>(async ({ owner, req, params }) => {
  const agent = await transcriptAgent(
    owner.userId,
    idParam(params.id, "goal"),
    idParam(params.agentId, "agent"),
  );
  let { after } = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return sseResponse(req.signal, async (signal) => {
    const page = await waitFor({
      topics: [`goal:${agent.goal_id}`],
      timeoutMs: 15_000,
      recheckMs: 2000,
      signal,
      check: async () => {
        const p = await transcriptEntries(agent.goal_id, agent.agent_id, { after, limit: 200 });
        return p.entries.length ? p : undefined;
      },
    });
    if (!page) return undefined;
    after = page.next_cursor;
    return page.entries.map((e) => `event: entry\nid: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`);
  });
});
