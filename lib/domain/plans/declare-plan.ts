import fs from "node:fs";
import { z } from "zod";
import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { goalOwnerId, missingSkills, skillName, unknownSkill } from "@/lib/domain/skills/skills";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { planDocument, planPath, stagingPath, writeFileSync } from "./plan-state";

export const taskId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only (it names a directory)");

export const taskSpec = z.strictObject({
  id: taskId.describe("Your id for this task, unique within the plan; spawn_agent and depends_on use it."),
  role: z.string().trim().min(1).max(64).describe("Display name of the agent that will run this task."),
  skill: skillName.describe("Skill name (e.g. engineer, reviewer, researcher); checked to exist now."),
  task: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe("First message the spawned agent receives; self-contained."),
  description: z.string().max(4000).default("").describe("Substituted into {role_description}."),
  model: z.string().trim().min(1).max(100).optional().describe("Per-task model override."),
  depends_on: z
    .array(taskId)
    .max(100)
    .default([])
    .describe("Ids of tasks of this plan that must be done first."),
});

export const declarePlanInput = z.strictObject({
  tasks: z.array(taskSpec).max(100).describe("The DAG's nodes (1..100)."),
});

export const planTaskView = z.object({
  id: z.string(),
  role: z.string(),
  skill: z.string(),
  depends_on: z.array(z.string()),
  status: z.enum(["ready", "blocked", "in_flight", "done", "failed"]),
});

export const declarePlanOutput = z.object({
  plan_id: z.string(),
  plan_path: z.string(),
  tasks: z.array(planTaskView),
});

type Spec = z.output<typeof taskSpec>;

/** A dependency cycle as an id chain that starts and ends with the same id, or undefined. */
export function findCycle(tasks: Spec[]): string[] | undefined {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "visiting") return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, "visiting");
    stack.push(id);
    for (const d of byId.get(id)?.depends_on ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    stack.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const t of tasks) {
    const c = visit(t.id);
    if (c) return c;
  }
  return undefined;
}

/** Structural checks, in order: empty_plan, duplicate_task_id, self_dep, unknown_dep, cycle_detected. */
export function validatePlan(tasks: Spec[]): void {
  const fix = "Fix the plan and call declare_plan again; nothing was saved.";
  if (tasks.length === 0) throw new DomainError("empty_plan", "The plan has no tasks.", { hint: fix });
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) {
      throw new DomainError("duplicate_task_id", `Two tasks share the id "${t.id}".`, {
        details: { task_id: t.id },
        hint: fix,
      });
    }
    seen.add(t.id);
  }
  for (const t of tasks) {
    if (t.depends_on.includes(t.id)) {
      throw new DomainError("self_dep", `Task "${t.id}" depends on itself.`, {
        details: { task_id: t.id },
        hint: fix,
      });
    }
  }
  for (const t of tasks) {
    const unknown = t.depends_on.filter((d) => !seen.has(d));
    if (unknown.length) {
      throw new DomainError("unknown_dep", `Task "${t.id}" depends on undeclared ${unknown.join(", ")}.`, {
        details: { task_id: t.id, unknown_deps: unknown },
        hint: fix,
      });
    }
  }
  const cycle = findCycle(tasks);
  if (cycle) {
    throw new DomainError("cycle_detected", `The dependencies form a cycle: ${cycle.join(" -> ")}.`, {
      details: { cycle },
      hint: fix,
    });
  }
}

/**
 * `declare_plan`: validate the DAG, check the skills exist, then persist it. The plan file is written
 * first, under a staging name beside it (so a file system that refuses it fails the call before anything
 * is stored, as the contract orders), then the database, where setting the caller's active plan is a
 * conditional update (the plan lock: two concurrent declarations cannot both win). The file takes its
 * name once the unit has committed (`afterCommit`); a failed unit or group commit removes the staged
 * file, so it leaves nothing behind.
 */
export async function declarePlan(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof declarePlanInput>,
) {
  validatePlan(input.tasks);
  const planId = newId("plan");
  const file = planPath(planId);
  const staged = stagingPath(file);
  const removeStaged = (e: unknown) => {
    fs.rmSync(staged, { force: true });
    throw e;
  };
  return write(async (u) => {
    await holdGoalUnpaused(u, caller.goalId, "declare_plan");
    // The goal owner's own skills, else the built-ins; another owner's skill is unknown here (issue 16 §2).
    const missing = await missingSkills(
      u,
      await goalOwnerId(u, caller.goalId),
      input.tasks.map((t) => t.skill),
    );
    if (missing.length) throw unknownSkill(missing);
    const me = await u.db.agent.findUnique({ where: { id: caller.agentId } });
    if (me?.activePlanId) {
      throw new DomainError(
        "plan_already_declared",
        `You already have an active plan (${me.activePlanId}).`,
        {
          details: { plan_id: me.activePlanId },
        },
      );
    }
    const now = new Date();
    const rows = input.tasks.map((t, position) => ({
      planId,
      key: t.id,
      role: t.role,
      skill: t.skill,
      task: t.task,
      description: t.description,
      model: t.model ?? null,
      dependsOnJson: JSON.stringify(t.depends_on),
      status: t.depends_on.length === 0 ? "ready" : "blocked",
      agentId: null,
      position,
    }));
    const plan = { id: planId, goalId: caller.goalId, leaderId: caller.agentId, createdAt: now };
    writeFileSync(staged, `${JSON.stringify(planDocument(plan, rows), null, 2)}\n`);
    u.afterCommit(() => fs.renameSync(staged, file));
    // Then the database.
    {
      await u.db.plan.create({ data: { ...plan, path: file, status: "active" } });
      await u.db.planTask.createMany({ data: rows });
      const { count: taken } = await u.db.agent.updateMany({
        where: { id: caller.agentId, activePlanId: null },
        data: { activePlanId: planId },
      });
      if (taken === 0) {
        throw new DomainError("plan_already_declared", "You already have an active plan.", {
          hint: "Call remove_plan first if you mean to replan.",
        });
      }
      await appendEvent(u, {
        goalId: caller.goalId,
        name: "plan_declared",
        agentId: caller.agentId,
        data: { plan_id: planId, plan_path: file, tasks: rows.map((r) => r.key) },
      });
      for (const r of rows.filter((r) => r.status === "ready")) {
        await appendEvent(u, {
          goalId: caller.goalId,
          name: "task_ready",
          agentId: caller.agentId,
          data: { plan_id: planId, task_id: r.key },
        });
      }
    }
    return {
      plan_id: planId,
      plan_path: file,
      tasks: rows.map((r) => ({
        id: r.key,
        role: r.role,
        skill: r.skill,
        depends_on: JSON.parse(r.dependsOnJson) as string[],
        status: r.status as "ready" | "blocked",
      })),
    };
  }).catch(removeStaged);
}
