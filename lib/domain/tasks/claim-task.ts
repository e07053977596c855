import { z } from "zod";
import { type ReadUnit, write } from "@/lib/db";
import type { SqlDate } from "@/lib/db/rows";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError, notFound } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";

export const claimTaskInput = z.strictObject({ task_id: z.number().int().positive().max(MAX_DB_INT) });

export const claimTaskOutput = z.object({
  task_id: z.number().int(),
  status: z.string(),
  claimed_at: z.string().describe("date-time"),
});

/** A task of the caller's goal (another goal's task is `not_found`). */
export type TaskRow = {
  id: number;
  goalId: number;
  title: string;
  status: string;
  assigneeId: number | null;
  billingCode: string | null;
  verifierJson: string;
  verifierKind: string;
};

export const TASK_COLUMNS = `id, "goalId", title, status, "assigneeId", "billingCode", "verifierJson", "verifierKind"`;

/** The task, if it belongs to the caller's goal; otherwise `not_found` (another goal's task is not shown). */
export async function goalTaskOr404(u: ReadUnit, goalId: number, taskId: number): Promise<TaskRow> {
  const task = await u.sql.get<TaskRow>(`SELECT ${TASK_COLUMNS} FROM "GoalTask" WHERE id = ?`, taskId);
  if (!task || task.goalId !== goalId) throw notFound(`task ${taskId}`);
  return task;
}

/** Why a claim changed nothing: quarantined, not this goal's task, already claimed, or not approved. */
async function refusal(
  u: ReadUnit,
  caller: { agentId: number; goalId: number },
  taskId: number,
): Promise<never> {
  const me = await u.sql.get<{ quarantinedAt: SqlDate | null }>(
    `SELECT "quarantinedAt" FROM "Agent" WHERE id = ?`,
    caller.agentId,
  );
  if (me?.quarantinedAt) {
    throw new DomainError("ErrAgentQuarantined", "You are quarantined and may not claim tasks.", {
      details: { agent_id: caller.agentId },
    });
  }
  const task = await goalTaskOr404(u, caller.goalId, taskId);
  if (task.assigneeId !== null && task.status !== "cancelled") {
    throw new DomainError(
      "ErrAlreadyClaimed",
      `Task ${taskId} is already claimed by agent ${task.assigneeId}.`,
      {
        details: { task_id: taskId, status: task.status, assignee_id: task.assigneeId },
        hint: "Pick another approved task.",
      },
    );
  }
  throw new DomainError("ErrTaskNotApproved", `Task ${taskId} is ${task.status}, not approved.`, {
    details: { task_id: taskId, status: task.status },
    hint: "Only approved, unassigned tasks can be claimed.",
  });
}

/**
 * `claim_task`: one conditional UPDATE (`status = 'approved' AND assigneeId IS NULL`), so of any number
 * of racing claims exactly one changes the row — on SQLite (one writer) and on PostgreSQL (the row lock
 * makes the losers re-check the condition and find it false).
 */
export async function claimTask(caller: { agentId: number; goalId: number }, taskId: number) {
  return write(async (u) => {
    await holdGoalUnpaused(u, caller.goalId, "claim_task", taskId);
    const now = new Date();
    // One statement on the path that wins (a quarantined caller changes nothing); the reasons for a
    // refusal are read only when it is refused.
    const task = await u.sql.get<TaskRow>(
      `UPDATE "GoalTask" SET status = 'claimed', "assigneeId" = ?, "claimedAt" = ?, "updatedAt" = ?
       WHERE id = ? AND "goalId" = ? AND status = 'approved' AND "assigneeId" IS NULL
         AND NOT EXISTS (SELECT 1 FROM "Agent" a WHERE a.id = ? AND a."quarantinedAt" IS NOT NULL)
       RETURNING ${TASK_COLUMNS}`,
      caller.agentId,
      now,
      now,
      taskId,
      caller.goalId,
      caller.agentId,
    );
    if (!task) return refusal(u, caller, taskId);
    await appendEvent(u, {
      goalId: task.goalId,
      name: "task_claimed",
      agentId: caller.agentId,
      data: { task_id: taskId },
    });
    await postToGoalChannel(
      u,
      task.goalId,
      `Task #${taskId} "${task.title}" claimed by agent #${caller.agentId}.`,
      {
        task_id: taskId,
        status: "claimed",
      },
    );
    return { task_id: taskId, status: "claimed", claimed_at: now.toISOString() };
  });
}
