import { getOwnedGoal } from "@/lib/domain/goals/queries";
import { costsQuery, goalCosts } from "@/lib/domain/usage/cost-report";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/goals/:id/costs?group_by=agent|task|billing_code|model&bucket=hour|day&from&to&limit – spend from the hourly roll-ups
export const GET = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const goal = await getOwnedGoal(owner.userId, idParam(params.id, "goal"));
  return goalCosts(goal.id, costsQuery.parse(Object.fromEntries(new URL(req.url).searchParams)));
});
