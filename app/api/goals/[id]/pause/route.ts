import { pauseGoal } from "@/lib/domain/usage/pause-goal";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/goals/:id/pause – the owner pauses a goal by hand → {goal_id, status}
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  pauseGoal(owner.userId, idParam(params.id, "goal")),
);
