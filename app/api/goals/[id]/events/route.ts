import { listEvents, listEventsQuery } from "@/lib/domain/events/list-events";
import { getOwnedGoal } from "@/lib/domain/goals/queries";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/goals/:id/events?after=CURSOR&limit=N – the goal's event log in order, after a cursor
export const GET = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const goal = await getOwnedGoal(owner.userId, idParam(params.id, "goal"));
  const q = listEventsQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return listEvents(goal.id, q);
});
