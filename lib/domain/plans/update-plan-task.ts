import { z } from "zod";
import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { taskId } from "./declare-plan";
import { activePlan, refreshReadiness, syncPlanFileAfterCommit } from "./plan-state";

export const updatePlanTaskInput = z.strictObject({
  task_id: taskId.describe("Id of a task of your active plan that is not in flight."),
  status: z
    .enum(["done", "failed"])
    .describe("done: the work is done without a spawned agent; failed: abandon it."),
  note: z.string().max(4000).optional().describe("Why (kept in the event log)."),
});

export const updatePlanTaskOutput = z.object({
  task_id: z.string(),
  status: z.enum(["done", "failed"]),
  ready: z.array(z.string()),
});

/**
 * `update_plan_task` (docs/contracts.md): a leader marks a task of its active plan that is not in flight
 * `done` or `failed`. In-flight tasks end through terminate_child (approve → done, force → failed).
 */
export async function updatePlanTask(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof updatePlanTaskInput>,
) {
  const ready = await write(async (u) => {
    await holdGoalUnpaused(u, caller.goalId, "update_plan_task");
    const { plan, tasks } = await activePlan(u, caller.agentId);
    const task = tasks.find((t) => t.key === input.task_id);
    if (!task) {
      throw new DomainError("unknown_task", `Task "${input.task_id}" is not in your active plan.`, {
        details: { task_id: input.task_id, plan_id: plan.id },
      });
    }
    if (task.status === "in_flight") {
      throw new DomainError("task_in_flight", `Task "${task.key}" is run by agent ${task.agentId}.`, {
        details: { task_id: task.key, agent_id: String(task.agentId) },
      });
    }
    if (task.status === "done" || task.status === "failed") {
      throw new DomainError("task_not_pending", `Task "${task.key}" is already ${task.status}.`, {
        details: { task_id: task.key, status: task.status },
      });
    }
    await u.db.planTask.update({
      where: { planId_key: { planId: plan.id, key: task.key } },
      data: { status: input.status },
    });
    await appendEvent(u, {
      goalId: caller.goalId,
      name: input.status === "done" ? "task_done" : "task_failed",
      agentId: caller.agentId,
      data: { plan_id: plan.id, task_id: task.key, by: "update_plan_task", note: input.note ?? null },
    });
    const now = await refreshReadiness(u, plan);
    syncPlanFileAfterCommit(u, plan.id);
    return now.filter((t) => t.status === "ready").map((t) => t.key);
  });
  return { task_id: input.task_id, status: input.status, ready };
}
