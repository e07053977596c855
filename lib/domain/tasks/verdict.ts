import type { Unit } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { settleGoal } from "@/lib/domain/goals/lifecycle";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { recordVerdictEvidence } from "@/lib/domain/reputation/reputation";
import type { TaskRow } from "./claim-task";

/**
 * Apply a verification verdict to a task in `awaiting_verification` (the caller checked that, inside
 * the same unit): `done` or `failed`, the reason recorded, +1 / −1 reputation evidence for the holder
 * in the billing code's domain, a post in the goal channel; a rejection tells the coordinator (and the
 * holder). Then the goal's state is re-derived (lib/domain/goals/lifecycle.ts): `completed` when every task
 * is done or cancelled, `stuck` when only failed tasks remain open.
 */
export async function applyVerdict(
  u: Unit,
  task: TaskRow,
  v: { approve: boolean; reason: string | null; by: string },
): Promise<string> {
  const status = v.approve ? "done" : "failed";
  const now = new Date();
  const changed = await u.sql.run(
    `UPDATE "GoalTask" SET status = ?, "verifiedAt" = ?, "verifiedBy" = ?, "verdictReason" = ?, "verifyLeaseUntil" = NULL, "updatedAt" = ?
     WHERE id = ? AND status = 'awaiting_verification'`,
    status,
    now,
    v.by,
    v.reason,
    now,
    task.id,
  );
  if (changed !== 1) throw new Error(`applyVerdict: task ${task.id} is no longer awaiting verification`);
  await u.sql.run(
    `UPDATE "Goal" SET ${v.approve ? `"tasksDone" = "tasksDone" + 1` : `"tasksFailed" = "tasksFailed" + 1`} WHERE id = ?`,
    task.goalId,
  );
  await appendEvent(u, {
    goalId: task.goalId,
    name: v.approve ? "task_done" : "task_failed",
    agentId: task.assigneeId,
    data: { task_id: task.id, verifier: task.verifierKind, by: v.by, reason: v.reason },
  });
  await postToGoalChannel(
    u,
    task.goalId,
    `Task #${task.id} "${task.title}" ${v.approve ? "verified: done" : "rejected: failed"} (${v.by})${v.reason ? `: ${v.reason}` : "."}`,
    { task_id: task.id, status },
  );
  if (task.assigneeId !== null) {
    await recordVerdictEvidence(u, {
      goalId: task.goalId,
      agentId: task.assigneeId,
      taskId: task.id,
      billingCode: task.billingCode,
      delta: v.approve ? 1 : -1,
    });
  }
  const goal = await u.sql.get<{ coordinatorAgentId: number | null; status: string }>(
    `SELECT "coordinatorAgentId", status FROM "Goal" WHERE id = ?`,
    task.goalId,
  );
  if (!v.approve) {
    const tell = new Set([goal?.coordinatorAgentId, task.assigneeId].filter((x): x is number => x != null));
    for (const agentId of tell) {
      await insertMessage(u, {
        goalId: task.goalId,
        recipientAgentId: Number(agentId),
        sender: { kind: "system" },
        kind: "task_failed",
        content: `Task #${task.id} "${task.title}" failed verification (${v.by})${v.reason ? `: ${v.reason}` : "."}`,
        meta: { task_id: task.id, reason: v.reason },
      });
    }
    await settleGoal(u, task.goalId, "task_verdict");
    return status;
  }
  // The last open task done completes the goal (or a failure leaves only failed tasks: stuck).
  await settleGoal(u, task.goalId, "task_verdict");
  return status;
}
