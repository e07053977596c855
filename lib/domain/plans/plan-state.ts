import fs from "node:fs";
import path from "node:path";
import { type ReadUnit, read, type Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { dataDir } from "@/lib/env";
import { DomainError } from "@/lib/errors";

/** Status of a plan task: `ready`/`blocked` are derived from dependencies; the rest are set by spawn/terminate. */
export type TaskStatus = "ready" | "blocked" | "in_flight" | "done" | "failed";

export type PlanTaskRow = {
  planId: string;
  key: string;
  role: string;
  skill: string;
  task: string;
  description: string;
  model: string | null;
  dependsOnJson: string;
  status: string;
  agentId: number | null;
  position: number;
};

export const deps = (t: { dependsOnJson: string }): string[] => JSON.parse(t.dependsOnJson) as string[];

/** Where plan files live: `<dataDir>/plans/<plan_id>.json`. */
export function planPath(planId: string): string {
  return path.join(dataDir(), "plans", `${planId}.json`);
}

/** The workspace of a goal and the artifacts directory of a plan task in it. */
export function artifactsPath(goalId: number, planId: string, taskId: string): string {
  return path.join(dataDir(), "workspaces", `goal-${goalId}`, "artifacts", planId, taskId);
}

/** A temporary name beside `file` (same directory, so renaming it into place is atomic). */
export function stagingPath(file: string): string {
  return `${file}.${process.pid}.${Date.now()}.tmp`;
}

/** Write `content` to `file`, creating its directory. */
export function writeFileSync(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o644 });
}

/** Write a file atomically: a temporary file in the same directory, then rename. */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = stagingPath(file);
  writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** The JSON document of a plan file. */
export function planDocument(
  plan: { id: string; goalId: number; leaderId: number; createdAt: Date },
  tasks: PlanTaskRow[],
) {
  return {
    plan_id: plan.id,
    goal_id: plan.goalId,
    leader_id: String(plan.leaderId),
    created_at: plan.createdAt.toISOString(),
    tasks: tasks.map((t) => ({
      id: t.key,
      role: t.role,
      skill: t.skill,
      task: t.task,
      description: t.description,
      model: t.model,
      depends_on: deps(t),
      status: t.status,
      agent_id: t.agentId === null ? null : String(t.agentId),
    })),
  };
}

/**
 * Rewrite the plan's file once `u` has committed, from the database as it then is (a later change's own
 * rewrite comes after this one).
 */
export function syncPlanFileAfterCommit(u: Unit, planId: string): void {
  u.afterCommit(() => read((r) => syncPlanFile(r, planId)));
}

/** Rewrite a plan's file from the database (after a status change). Best effort: the database is the truth. */
export async function syncPlanFile(u: ReadUnit, planId: string): Promise<void> {
  const plan = await u.db.plan.findUnique({ where: { id: planId } });
  if (plan?.status !== "active") return;
  const tasks = await u.db.planTask.findMany({ where: { planId }, orderBy: { position: "asc" } });
  try {
    writeFileAtomic(plan.path, `${JSON.stringify(planDocument(plan, tasks), null, 2)}\n`);
  } catch {
    // The file mirrors the database; a failed rewrite is repaired by the next change.
  }
}

/** The caller's active plan and its tasks; `no_active_plan` when there is none. */
export async function activePlan(u: ReadUnit, agentId: number) {
  const agent = await u.db.agent.findUnique({ where: { id: agentId }, select: { activePlanId: true } });
  const plan = agent?.activePlanId ? await u.db.plan.findUnique({ where: { id: agent.activePlanId } }) : null;
  if (plan?.status !== "active") {
    throw new DomainError("no_active_plan", "You have no active plan.");
  }
  const tasks = await u.db.planTask.findMany({ where: { planId: plan.id }, orderBy: { position: "asc" } });
  return { plan, tasks };
}

export const readyIds = (tasks: PlanTaskRow[]) => tasks.filter((t) => t.status === "ready").map((t) => t.key);

/**
 * Recompute ready/blocked for the plan's waiting tasks after a task finished; records `task_ready`
 * for each task that became ready. Returns the tasks as they are now.
 */
export async function refreshReadiness(
  u: Unit,
  plan: { id: string; goalId: number; leaderId: number },
): Promise<PlanTaskRow[]> {
  const tasks = await u.db.planTask.findMany({ where: { planId: plan.id }, orderBy: { position: "asc" } });
  const done = new Set(tasks.filter((t) => t.status === "done").map((t) => t.key));
  for (const t of tasks) {
    if (t.status !== "ready" && t.status !== "blocked") continue;
    const next = deps(t).every((d) => done.has(d)) ? "ready" : "blocked";
    if (next === t.status) continue;
    await u.db.planTask.update({
      where: { planId_key: { planId: plan.id, key: t.key } },
      data: { status: next },
    });
    t.status = next;
    if (next === "ready") {
      await appendEvent(u, {
        goalId: plan.goalId,
        name: "task_ready",
        agentId: plan.leaderId,
        data: { plan_id: plan.id, task_id: t.key },
      });
    }
  }
  return tasks;
}

/**
 * Finish the plan task an agent was spawned for (`done` on approval, `failed` on a forced end),
 * recording `task_done` / `task_failed` and the tasks that became ready; the plan file follows after commit.
 */
export async function finishAgentTask(
  u: Unit,
  agent: { id: number; goalId: number; leaderId: number | null; planTaskId: string | null },
  outcome: "done" | "failed",
): Promise<void> {
  if (!agent.planTaskId || agent.leaderId === null) return;
  const task = await u.db.planTask.findFirst({
    where: { agentId: agent.id, key: agent.planTaskId, status: "in_flight" },
    include: { plan: true },
  });
  if (!task) return;
  await u.db.planTask.update({
    where: { planId_key: { planId: task.planId, key: task.key } },
    data: { status: outcome },
  });
  await appendEvent(u, {
    goalId: agent.goalId,
    name: outcome === "done" ? "task_done" : "task_failed",
    agentId: agent.id,
    data: { plan_id: task.planId, task_id: task.key },
  });
  if (outcome === "done") await refreshReadiness(u, task.plan);
  syncPlanFileAfterCommit(u, task.planId);
}
