import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { read } from "@/lib/db";
import { transcriptAgent, transcriptEntries } from "@/lib/domain/runner/transcript";
import { idParam, ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";
import { MAX_DB_INT } from "@/lib/ids";

export const dynamic = "force-dynamic";

const query = z.object({ after: z.coerce.number().int().min(0).max(MAX_DB_INT).default(0) });

// GET /api/goals/:id/agents/:agentId/transcript/stream?after=SEQ – Server-Sent Events: `entry` (one
// transcript entry) as it is recorded, after the cursor. Woken by the goal's bus topic, as the goal stream.
// The cursor moves to the goal's head after a check that found nothing, so a quiet agent's viewer does not
// re-read every other agent's events at each wake-up (the read filters the goal's events by agent).
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
        // Events up to the goal's committed head are all there (appendEvent bumps it in their transaction).
        const head = await read(({ db }) =>
          db.goal.findUnique({ where: { id: agent.goal_id }, select: { eventSeq: true } }),
        );
        const upTo = head?.eventSeq ?? after;
        const p = await transcriptEntries(agent.goal_id, agent.agent_id, { after, limit: 200 }, upTo);
        if (p.entries.length) return p;
        after = Math.max(after, upTo);
        return undefined;
      },
    });
    if (!page) return undefined;
    after = page.next_cursor;
    return page.entries.map((e) => `event: entry\nid: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`);
  });
});
