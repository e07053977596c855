import { cancelGoal } from "@/lib/domain/goals/cancel-goal";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/goals/:id/cancel – the owner cancels a goal: {reason?} → {goal_id, status, tasks_cancelled, …}
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = await jsonBody(req);
  return cancelGoal(owner.userId, idParam(params.id, "goal"), body && typeof body === "object" ? body : {});
});
