import { resumeGoal, resumeGoalInput } from "@/lib/domain/usage/resume-goal";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/goals/:id/resume – wraps resume_goal: {new_budget_dollars_cents?, new_budget_tokens?} → {goal_id, status}
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = await jsonBody(req);
  const input = resumeGoalInput.parse({
    ...(body && typeof body === "object" ? body : {}),
    goal_id: idParam(params.id, "goal"),
  });
  return resumeGoal(owner.userId, input);
});
