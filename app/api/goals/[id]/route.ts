import { goalSnapshot } from "@/lib/domain/goals/dashboard";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/goals/:id – {goal, tasks_tree, spawned_agents, cost_breakdown, recent_events}
export const GET = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  goalSnapshot(owner.userId, idParam(params.id, "goal")),
);
