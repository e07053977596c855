import { write } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { settleGoal } from "@/lib/domain/goals/lifecycle";
import { lockGoal } from "@/lib/domain/goals/lock-goal";
import { owned } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";

/**
 * A done or cancelled task stays as it is. A failed task may be cancelled by the owner ("written off",
 * issue 13): otherwise a goal with a failed task could never complete, and a stuck goal (only failed tasks
 * open) would have no way forward but cancelling the whole goal (docs/goals.md "Goal states").
 */
const TERMINAL = new Set(["done", "cancelled"]);

/**
 * The owner cancels an unfinished task (docs/contracts.md); a cancelled task cannot be claimed. The goal's
 * state follows (lib/domain/goals/lifecycle.ts): cancelling the last open task completes it, and cancelling
 * a stuck goal's failed tasks completes it too.
 */
export async function cancelTask(ownerId: number, goalId: number, taskId: number) {
  return write(async (u) => {
    // The goal row first, as every task write does (budget-gate.ts): on PostgreSQL a concurrent
    // complete_task or claim then queues behind this unit instead of deadlocking against it.
    await lockGoal(u, goalId);
    const row = await u.db.goalTask.findUnique({ where: { id: taskId }, include: { goal: true } });
    const task = owned(row?.goalId === goalId ? row : null, (t) => t.goal.ownerId, ownerId, `task ${taskId}`);
    if (TERMINAL.has(task.status)) {
      throw new DomainError("ErrTaskTerminal", `Task ${taskId} is already ${task.status}.`, {
        details: { task_id: taskId, status: task.status },
      });
    }
    // Conditional on the status just read: a task finished meanwhile is never overwritten.
    const changed = await u.sql.run(
      `UPDATE "GoalTask" SET status = 'cancelled', "verifyLeaseUntil" = NULL, "updatedAt" = ? WHERE id = ? AND status = ?`,
      new Date(),
      taskId,
      task.status,
    );
    if (changed === 0) {
      throw new DomainError(
        "ErrTaskTerminal",
        `Task ${taskId} changed while it was being cancelled; reload it.`,
        {
          details: { task_id: taskId },
        },
      );
    }
    await appendEvent(u, { goalId, name: "task_cancelled", data: { task_id: taskId, from: task.status } });
    await postToGoalChannel(u, goalId, `Task #${taskId} "${task.title}" cancelled by the owner.`, {
      task_id: taskId,
      status: "cancelled",
    });
    await settleGoal(u, goalId, "task_cancelled");
    return { task_id: taskId, status: "cancelled" };
  });
}
