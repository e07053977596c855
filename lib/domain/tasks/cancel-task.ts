import { write } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";

const TERMINAL = new Set(["done", "failed", "cancelled"]);

/** The owner cancels an unfinished task (docs/contracts.md); a cancelled task cannot be claimed. */
export async function cancelTask(ownerId: number, goalId: number, taskId: number) {
  return write(async (u) => {
    const row = await u.db.goalTask.findUnique({ where: { id: taskId }, include: { goal: true } });
    const task = owned(row?.goalId === goalId ? row : null, (t) => t.goal.ownerId, ownerId, `task ${taskId}`);
    if (TERMINAL.has(task.status)) {
      throw new DomainError("ErrTaskTerminal", `Task ${taskId} is already ${task.status}.`, {
        details: { task_id: taskId, status: task.status },
      });
    }
    await u.sql.run(
      `UPDATE "GoalTask" SET status = 'cancelled', "verifyLeaseUntil" = NULL, "updatedAt" = ? WHERE id = ?`,
      new Date(),
      taskId,
    );
    await appendEvent(u, { goalId, name: "task_cancelled", data: { task_id: taskId, from: task.status } });
    await postToGoalChannel(u, goalId, `Task #${taskId} "${task.title}" cancelled by the owner.`, {
      task_id: taskId,
      status: "cancelled",
    });
    return { task_id: taskId, status: "cancelled" };
  });
}
