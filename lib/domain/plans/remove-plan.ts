import fs from "node:fs";
import { z } from "zod";
import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { DomainError } from "@/lib/errors";
import { activePlan } from "./plan-state";

export const removePlanInput = z.strictObject({});
export const removePlanOutput = z.object({ removed_plan_id: z.string() });

/**
 * `remove_plan`: drop the caller's active plan unless a task is in flight (`plan_in_use` lists them
 * with their agents). Once that has committed, the file is renamed `<plan_id>.removed.json`; the
 * `plan_removed` event keeps the history.
 */
export async function removePlan(caller: { agentId: number; goalId: number }) {
  return write(async (u) => {
    const { plan, tasks } = await activePlan(u, caller.agentId);
    const inFlight = tasks.filter((t) => t.status === "in_flight");
    if (inFlight.length) {
      const list = inFlight.map((t) => ({ task_id: t.key, agent_id: String(t.agentId) }));
      throw new DomainError(
        "plan_in_use",
        `Tasks still in flight: ${list.map((t) => `${t.task_id} (agent ${t.agent_id})`).join(", ")}.`,
        {
          details: { in_flight: list },
        },
      );
    }
    await u.db.plan.update({ where: { id: plan.id }, data: { status: "removed", removedAt: new Date() } });
    await u.db.agent.update({ where: { id: caller.agentId }, data: { activePlanId: null } });
    const removedPath = plan.path.replace(/\.json$/, ".removed.json");
    u.afterCommit(() => {
      try {
        fs.renameSync(plan.path, removedPath);
      } catch {
        // A missing file does not stop the replan; the database is the truth.
      }
    });
    await appendEvent(u, {
      goalId: caller.goalId,
      name: "plan_removed",
      agentId: caller.agentId,
      data: {
        plan_id: plan.id,
        removed_path: removedPath,
        tasks: tasks.map((t) => ({ id: t.key, status: t.status })),
      },
    });
    return { removed_plan_id: plan.id };
  });
}
