import { cancelTask } from "@/lib/domain/tasks/cancel-task";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/goals/:id/tasks/:taskId/cancel – the owner cancels a task that is not finished
export const POST = ownerRoute<{ id: string; taskId: string }>(async ({ owner, params }) =>
  cancelTask(owner.userId, idParam(params.id, "goal"), idParam(params.taskId, "task")),
);
