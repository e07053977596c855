import { write } from "@/lib/db";
import type { VerifierConfig } from "@/lib/domain/proposals/task-tree";
import { env } from "@/lib/env";
import { TASK_COLUMNS, type TaskRow } from "./claim-task";
import { applyVerdict } from "./verdict";

export const DEFAULT_COMMAND_TIMEOUT_S = 600;
/** A runner's lease on a job lasts the command's timeout plus this grace; then another runner may take it. */
const leaseGraceMs = () => env().SWITCHBOARD_RUNNER_LEASE_GRACE_S * 1000;

export type CommandJob = {
  task_id: number;
  goal_id: number;
  title: string;
  description: string;
  acceptance_criteria: string | null;
  billing_code: string | null;
  summary: string | null;
  artifacts: string[];
  ancestry: string;
  assignee_id: number | null;
  cmd: string;
  cwd: string | null;
  timeout_sec: number;
};

type JobRow = TaskRow & {
  description: string;
  acceptanceCriteria: string | null;
  summary: string | null;
  artifactsJson: string | null;
  ancestry: string;
};

/**
 * Take one command-verification job, atomically: a conditional UPDATE on the lease, so of several
 * runners exactly one gets each job (SQLite: one writer; PostgreSQL: the losers re-check the lease
 * after the winner commits and change nothing). A job whose runner died is taken again once its lease
 * (timeout + 30 s) has expired.
 */
export async function claimCommandJob(runnerId: string): Promise<CommandJob | null> {
  return write(async (u) => {
    const now = new Date();
    const candidates = await u.sql.all<{ id: number }>(
      `SELECT id FROM "GoalTask" WHERE "verifierKind" = 'command' AND status = 'awaiting_verification'
         AND ("verifyLeaseUntil" IS NULL OR "verifyLeaseUntil" < ?) ORDER BY id LIMIT 5`,
      now,
    );
    for (const c of candidates) {
      const row = await u.sql.get<JobRow>(
        `SELECT ${TASK_COLUMNS}, description, "acceptanceCriteria", summary, "artifactsJson", ancestry FROM "GoalTask" WHERE id = ?`,
        c.id,
      );
      if (!row) continue;
      const v = JSON.parse(row.verifierJson) as VerifierConfig;
      if (v.kind !== "command") continue;
      const timeout = v.timeout_sec ?? DEFAULT_COMMAND_TIMEOUT_S;
      const taken = await u.sql.run(
        `UPDATE "GoalTask" SET "verifyClaimedBy" = ?, "verifyLeaseUntil" = ?
         WHERE id = ? AND status = 'awaiting_verification' AND ("verifyLeaseUntil" IS NULL OR "verifyLeaseUntil" < ?)`,
        runnerId,
        new Date(now.getTime() + timeout * 1000 + leaseGraceMs()),
        row.id,
        now,
      );
      if (taken !== 1) continue;
      return {
        task_id: Number(row.id),
        goal_id: Number(row.goalId),
        title: row.title,
        description: row.description,
        acceptance_criteria: row.acceptanceCriteria,
        billing_code: row.billingCode,
        summary: row.summary,
        artifacts: row.artifactsJson ? (JSON.parse(row.artifactsJson) as string[]) : [],
        ancestry: row.ancestry,
        assignee_id: row.assigneeId === null ? null : Number(row.assigneeId),
        cmd: v.cmd,
        cwd: v.cwd ?? null,
        timeout_sec: timeout,
      };
    }
    return null;
  });
}

/** A runner reports the verdict of a job it holds; false when it no longer holds it (lease lost). */
export async function reportCommandVerdict(
  runnerId: string,
  taskId: number,
  verdict: { approve: boolean; reason: string },
): Promise<boolean> {
  return write(async (u) => {
    const task = await u.sql.get<TaskRow & { verifyClaimedBy: string | null }>(
      `SELECT ${TASK_COLUMNS}, "verifyClaimedBy" FROM "GoalTask" WHERE id = ?`,
      taskId,
    );
    if (task?.status !== "awaiting_verification" || task.verifyClaimedBy !== runnerId) return false;
    await applyVerdict(u, task, {
      approve: verdict.approve,
      reason: verdict.reason,
      by: `runner:${runnerId}`,
    });
    return true;
  });
}
