import fs from "node:fs";
import { z } from "zod";
import { read, write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { taskId } from "@/lib/domain/plans/declare-plan";
import { activePlan, artifactsPath, deps, syncPlanFileAfterCommit } from "@/lib/domain/plans/plan-state";
import { loadSkill } from "@/lib/domain/skills/skills";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { uuid } from "@/lib/ids";
import { acquireLease, holdLock, releaseLease } from "./lease";
import { addMember, checkDepth, createTeamRow } from "./members";

export const spawnAgentInput = z.strictObject({
  task_id: taskId.describe("Id of a ready task of your active plan (see list_ready)."),
});

export const spawnAgentOutput = z.object({
  agent_id: z.string(),
  team_id: z.string(),
  task_id: z.string(),
  remaining_ready: z.array(z.string()),
  team_created: z.boolean(),
});

/** How long a spawn lock outlives a crashed holder. */
const LOCK_TTL_MS = 30_000;

export function concurrentError(code: "concurrent_spawn" | "concurrent_create_team", what: string) {
  return new DomainError(code, `You already have a ${what} in flight.`, {
    hint: `Wait for it to return, then call ${what} again (one at a time per agent).`,
  });
}

/** The first message of a spawned agent: the assignment block, then the task text. */
export function assignmentMessage(planTaskId: string, artifacts: string, task: string): string {
  return `[TASK ASSIGNMENT]\nplan_task_id: ${planTaskId}\nartifacts_path: ${artifacts}\n[/TASK ASSIGNMENT]\n\n${task}`;
}

/**
 * `spawn_agent`: spawn the agent of one ready task of the caller's active plan. One spawn per agent at
 * a time (a database lease, `concurrent_spawn`); the first spawn creates the caller's team
 * (`team_created` before the first `agent_spawned`). The task becomes `in_flight`.
 */
export async function spawnAgent(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof spawnAgentInput>,
) {
  const lock = `spawn:${caller.agentId}`;
  const holder = uuid();
  if (!(await acquireLease(lock, holder, LOCK_TTL_MS)))
    throw concurrentError("concurrent_spawn", "spawn_agent");
  try {
    const { plan, task, goal } = await read(async (u) => {
      const { plan, tasks } = await activePlan(u, caller.agentId);
      const goal = await u.db.goal.findUniqueOrThrow({ where: { id: caller.goalId } });
      return { plan, task: tasks.find((t) => t.key === input.task_id), goal };
    });
    // Provision the task's artifacts directory before the database records the spawn.
    const artifacts = artifactsPath(goal.id, plan.id, input.task_id);
    if (task && task.status === "ready") fs.mkdirSync(artifacts, { recursive: true });
    await holdLock();
    const out = await write(async (u) => {
      await holdGoalUnpaused(u, caller.goalId, "spawn_agent");
      const { tasks } = await activePlan(u, caller.agentId);
      const t = tasks.find((x) => x.key === input.task_id);
      if (!t) {
        throw new DomainError("unknown_task", `Task "${input.task_id}" is not in your active plan.`, {
          details: { task_id: input.task_id, plan_id: plan.id },
          hint: "Call list_ready to see the ids you can spawn.",
        });
      }
      if (t.status === "blocked") {
        const done = new Set(tasks.filter((x) => x.status === "done").map((x) => x.key));
        const unmet = deps(t).filter((d) => !done.has(d));
        throw new DomainError("task_not_ready", `Task "${t.key}" waits for ${unmet.join(", ")}.`, {
          details: { task_id: t.key, unmet_deps: unmet },
        });
      }
      if (t.status !== "ready") {
        throw new DomainError("task_not_pending", `Task "${t.key}" is ${t.status}.`, {
          details: { task_id: t.key, status: t.status },
          hint: "Only ready tasks can be spawned; call list_ready.",
        });
      }
      const me = await u.db.agent.findUniqueOrThrow({ where: { id: caller.agentId } });
      const depth = checkDepth(me.spawnDepth, goal.maxSpawnDepth);
      const skill = await loadSkill(u, goal.ownerId, t.skill); // the owner's own, else the built-in
      let team = await u.db.team.findFirst({ where: { leaderId: me.id }, orderBy: { createdAt: "asc" } });
      const teamCreated = !team;
      team ??= await createTeamRow(u, me);
      const agent = await addMember(u, {
        goalId: goal.id,
        leaderId: me.id,
        teamId: team.id,
        depth,
        role: t.role,
        skill,
        model: t.model,
        description: t.description,
        planTaskId: t.key,
        firstMessage: assignmentMessage(t.key, artifacts, t.task),
        firstMessageKind: "task_assignment",
        meta: { plan_id: plan.id, plan_task_id: t.key, artifacts_path: artifacts },
      });
      await u.db.planTask.update({
        where: { planId_key: { planId: plan.id, key: t.key } },
        data: { status: "in_flight", agentId: agent.id },
      });
      syncPlanFileAfterCommit(u, plan.id);
      await appendEvent(u, {
        goalId: goal.id,
        name: "task_spawned",
        agentId: agent.id,
        teamId: team.id,
        data: { plan_id: plan.id, task_id: t.key, leader: String(me.id) },
      });
      return {
        agent_id: String(agent.id),
        team_id: team.id,
        task_id: t.key,
        remaining_ready: tasks.filter((x) => x.status === "ready" && x.key !== t.key).map((x) => x.key),
        team_created: teamCreated,
      };
    });
    return out;
  } finally {
    await releaseLease(lock, holder);
  }
}
