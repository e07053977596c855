import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { listEvents } from "@/lib/domain/events/list-events";
import { getOwnedGoal, listGoalMessages } from "@/lib/domain/goals/queries";
import { idParam, ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";
import { MAX_DB_INT } from "@/lib/ids";

export const dynamic = "force-dynamic";

const query = z.object({
  after_message: z.coerce.number().int().min(0).max(MAX_DB_INT).default(0),
  after_event: z.coerce.number().int().min(0).max(MAX_DB_INT).default(0),
});

// GET /api/goals/:id/stream – Server-Sent Events: `message` (feed entries) and `event` (log entries) as
// they happen, after the given cursors. Woken by the bus; re-checks the database every 2 s regardless.
export const GET = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const goal = await getOwnedGoal(owner.userId, idParam(params.id, "goal"));
  let { after_message: afterMessage, after_event: afterEvent } = query.parse(
    Object.fromEntries(new URL(req.url).searchParams),
  );
  return sseResponse(req.signal, async (signal) => {
    const batch = await waitFor({
      topics: [`goal:${goal.id}`],
      timeoutMs: 15_000,
      recheckMs: 2000,
      signal,
      check: async () => {
        const [messages, { events }] = await Promise.all([
          listGoalMessages(goal.id, afterMessage),
          listEvents(goal.id, { after: afterEvent, limit: 200 }),
        ]);
        return messages.length || events.length ? { messages, events } : undefined;
      },
    });
    if (!batch) return undefined;
    afterMessage = batch.messages.at(-1)?.id ?? afterMessage;
    afterEvent = batch.events.at(-1)?.seq ?? afterEvent;
    return [
      ...batch.messages.map((m) => `event: message\nid: m${m.id}\ndata: ${JSON.stringify(m)}\n\n`),
      ...batch.events.map((e) => `event: event\nid: e${e.seq}\ndata: ${JSON.stringify(e)}\n\n`),
    ];
  });
});
