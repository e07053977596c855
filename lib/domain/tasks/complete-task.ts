import { z } from "zod";
import { write } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import type { VerifierConfig } from "@/lib/domain/proposals/task-tree";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { goalTaskOr404 } from "./claim-task";
import { applyVerdict } from "./verdict";

export const completeTaskInput = z.strictObject({
  task_id: z.number().int().positive().max(MAX_DB_INT),
  summary: z.string().min(1).max(16_000).describe("What you did and how it meets the acceptance criteria."),
  artifacts: z
    .array(z.string().min(1).max(2000))
    .max(100)
    .optional()
    .describe("Paths, URLs or short references to what you produced."),
});

export const completeTaskOutput = z.object({
  task_id: z.number().int(),
  status: z.string(),
  verifier: z.string(),
});

/**
 * `complete_task` (ours): the holder of a claimed task reports it finished → `awaiting_verification`.
 * `auto` verifies at once (→ done); `peer` puts a verification request in the named agent's inbox;
 * `command` waits for a runner (`npm run runner`).
 */
export async function completeTask(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof completeTaskInput>,
) {
  return write(async (u) => {
    await holdGoalUnpaused(u, caller.goalId, "complete_task", input.task_id);
    const task = await goalTaskOr404(u, caller.goalId, input.task_id);
    if (task.assigneeId !== caller.agentId) {
      throw new DomainError("ErrNotTaskHolder", `Task ${task.id} is not claimed by you.`, {
        details: { task_id: task.id, assignee_id: task.assigneeId },
      });
    }
    if (task.status !== "claimed" && task.status !== "in_progress") {
      throw new DomainError("ErrTaskNotInProgress", `Task ${task.id} is ${task.status}.`, {
        details: { task_id: task.id, status: task.status },
      });
    }
    const now = new Date();
    // Conditional on what was just checked: a cancel that committed since (PostgreSQL, another
    // transaction) is not revived; the caller is told the task's state now.
    const changed = await u.sql.run(
      `UPDATE "GoalTask" SET status = 'awaiting_verification', summary = ?, "artifactsJson" = ?, "completedAt" = ?, "updatedAt" = ?
       WHERE id = ? AND status IN ('claimed', 'in_progress') AND "assigneeId" = ?`,
      input.summary,
      JSON.stringify(input.artifacts ?? []),
      now,
      now,
      task.id,
      caller.agentId,
    );
    if (changed === 0) {
      const current = await goalTaskOr404(u, caller.goalId, input.task_id);
      throw new DomainError("ErrTaskNotInProgress", `Task ${task.id} is ${current.status}.`, {
        details: { task_id: task.id, status: current.status },
      });
    }
    await appendEvent(u, {
      goalId: task.goalId,
      name: "task_completed",
      agentId: caller.agentId,
      data: { task_id: task.id, verifier: task.verifierKind },
    });
    await postToGoalChannel(
      u,
      task.goalId,
      `Task #${task.id} "${task.title}" finished by agent #${caller.agentId}; awaiting verification (${task.verifierKind}).`,
      { task_id: task.id, status: "awaiting_verification" },
    );
    const verifier = JSON.parse(task.verifierJson) as VerifierConfig;
    const awaiting = { ...task, status: "awaiting_verification" };
    if (verifier.kind === "auto") {
      const status = await applyVerdict(u, awaiting, { approve: true, reason: null, by: "auto" });
      return { task_id: task.id, status, verifier: "auto" };
    }
    if (verifier.kind === "peer") {
      await insertMessage(u, {
        goalId: task.goalId,
        recipientAgentId: verifier.agent_id,
        sender: { kind: "system" },
        kind: "verification_request",
        content: [
          `Please verify task #${task.id} "${task.title}", finished by agent #${caller.agentId}.`,
          `Summary: ${input.summary}`,
          input.artifacts?.length ? `Artifacts: ${input.artifacts.join(", ")}` : null,
          `Decide with verify_task {task_id: ${task.id}, verdict: "approve" | "reject", reason}.`,
        ]
          .filter(Boolean)
          .join("\n"),
        meta: { task_id: task.id },
      });
    }
    return { task_id: task.id, status: "awaiting_verification", verifier: verifier.kind };
  });
}
