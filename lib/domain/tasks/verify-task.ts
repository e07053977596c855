import { z } from "zod";
import { write } from "@/lib/db";
import type { VerifierConfig } from "@/lib/domain/proposals/task-tree";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { goalTaskOr404 } from "./claim-task";
import { applyVerdict } from "./verdict";

export const verifyTaskInput = z.strictObject({
  task_id: z.number().int().positive().max(MAX_DB_INT),
  verdict: z.enum(["approve", "reject"]),
  reason: z.string().max(4000).optional(),
});

export const verifyTaskOutput = z.object({ task_id: z.number().int(), new_status: z.string() });

/**
 * `verify_task`: the peer named in the task's verifier records its verdict. Errors:
 * `ErrTaskNotAwaitingVerification` (the task is not waiting for a verdict), `ErrVerifierNotConfigured`
 * (the task's verifier is not `peer`), `ErrNotPermittedVerifier` (the caller is not the named peer, or
 * is the task's own holder).
 */
export async function verifyTask(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof verifyTaskInput>,
) {
  return write(async (u) => {
    await holdGoalUnpaused(u, caller.goalId, "verify_task");
    const task = await goalTaskOr404(u, caller.goalId, input.task_id);
    if (task.status !== "awaiting_verification") {
      throw new DomainError("ErrTaskNotAwaitingVerification", `Task ${task.id} is ${task.status}.`, {
        details: { task_id: task.id, status: task.status },
      });
    }
    const verifier = JSON.parse(task.verifierJson) as VerifierConfig;
    if (verifier.kind !== "peer") {
      throw new DomainError(
        "ErrVerifierNotConfigured",
        `Task ${task.id} has no peer verifier (${verifier.kind}).`,
        {
          details: { task_id: task.id, verifier: verifier.kind },
          hint:
            verifier.kind === "command"
              ? "A runner runs its command and decides."
              : "It is verified automatically.",
        },
      );
    }
    if (verifier.agent_id !== caller.agentId || task.assigneeId === caller.agentId) {
      throw new DomainError("ErrNotPermittedVerifier", `You are not the verifier of task ${task.id}.`, {
        details: { task_id: task.id },
      });
    }
    const new_status = await applyVerdict(u, task, {
      approve: input.verdict === "approve",
      reason: input.reason ?? null,
      by: `agent:${caller.agentId}`,
    });
    return { task_id: task.id, new_status };
  });
}
