import { read } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { listEvents } from "./list-events";

/**
 * A goal's events in the original orchestrator's log shape, one object per event: `ts, event, task_id,
 * agent_id, team_id` first, then the event's own fields (`goal_id` and `seq` added). `task_id` is the
 * event's own task, else the plan task of the agent it is about (null when neither). Ids are strings, as the
 * tools give them. For `switchboard events export --goal ID` (issue 11).
 */
export async function* exportGoalEvents(goalId: number): AsyncGenerator<Record<string, unknown>> {
  const agents = await read(async ({ db }) => {
    if (!(await db.goal.findUnique({ where: { id: goalId }, select: { id: true } }))) {
      throw notFound(`goal ${goalId}`);
    }
    return db.agent.findMany({ where: { goalId }, select: { id: true, planTaskId: true } });
  });
  const taskOf = new Map(agents.map((a) => [a.id, a.planTaskId]));
  let after = 0;
  for (;;) {
    const { events, next_cursor } = await listEvents(goalId, { after, limit: 1000 });
    for (const e of events) {
      const own = e.data.task_id;
      yield {
        ts: e.ts,
        event: e.event,
        task_id:
          own !== undefined ? String(own) : ((e.agent_id !== null ? taskOf.get(e.agent_id) : null) ?? null),
        agent_id: e.agent_id === null ? null : String(e.agent_id),
        team_id: e.team_id,
        ...e.data,
        goal_id: String(e.goal_id),
        seq: e.seq,
      };
    }
    if (events.length < 1000) return;
    after = next_cursor;
  }
}
