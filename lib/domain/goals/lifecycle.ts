import { read, type Unit } from "@/lib/db";
import { type SqlInt, toInt } from "@/lib/db/rows";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";

/** Task statuses with work still possible: claimable, held, or waiting for a verdict. */
export const WORKABLE_TASK = ["approved", "claimed", "in_progress", "awaiting_verification"] as const;

/**
 * What a running goal's tasks say about it (issue 13, docs/goals.md "Goal states"):
 * - `completed`: it has tasks and every one is `done` or `cancelled`;
 * - `stuck`: open tasks remain (neither done nor cancelled) but none is workable — every open task is
 *   `failed`, so nothing can be claimed, worked on or verified, and only the owner can move it on (cancel
 *   the failed tasks, approve a new task tree, or cancel the goal);
 * - `active` otherwise.
 */
export function goalStateOf(counts: { tasks: number; open: number; workable: number }) {
  if (counts.tasks > 0 && counts.open === 0) return "completed" as const;
  if (counts.open > 0 && counts.workable === 0) return "stuck" as const;
  return "active" as const;
}

/**
 * Re-derive a running goal's state after its tasks changed (a verdict, a cancelled task, a new tree, a
 * resume), inside the caller's unit. Only `active` and `stuck` goals move (draft, paused, completed and
 * cancelled are decided elsewhere). Every transition records an event (`goal_completed`, `goal_stuck`,
 * `goal_unstuck`) and posts in the goal channel; a goal that gets stuck also tells its coordinator.
 */
export async function settleGoal(u: Unit, goalId: number, cause: string): Promise<string | null> {
  const row = await u.sql.get<{
    status: string;
    coordinatorAgentId: SqlInt | null;
    tasks: SqlInt;
    open: SqlInt;
    workable: SqlInt;
    failed: SqlInt;
  }>(
    `SELECT g.status, g."coordinatorAgentId",
       (SELECT COUNT(*) FROM "GoalTask" t WHERE t."goalId" = g.id) AS tasks,
       (SELECT COUNT(*) FROM "GoalTask" t WHERE t."goalId" = g.id AND t.status NOT IN ('done', 'cancelled')) AS open,
       (SELECT COUNT(*) FROM "GoalTask" t WHERE t."goalId" = g.id AND t.status IN (${WORKABLE_TASK.map(() => "?").join(", ")})) AS workable,
       (SELECT COUNT(*) FROM "GoalTask" t WHERE t."goalId" = g.id AND t.status = 'failed') AS failed
     FROM "Goal" g WHERE g.id = ?`,
    ...WORKABLE_TASK,
    goalId,
  );
  if (!row || (row.status !== "active" && row.status !== "stuck")) return null;
  const next = goalStateOf({ tasks: toInt(row.tasks), open: toInt(row.open), workable: toInt(row.workable) });
  if (next === row.status) return null;
  const now = new Date();
  const moved = await u.sql.run(
    `UPDATE "Goal" SET status = ?, "updatedAt" = ? WHERE id = ? AND status = ?`,
    next,
    now,
    goalId,
    row.status,
  );
  if (moved !== 1) return null;
  const from = row.status;
  if (next === "completed") {
    await appendEvent(u, { goalId, name: "goal_completed", data: { from, to: next, cause } });
    await postToGoalChannel(u, goalId, "Every task is done: the goal is completed.", { goal_status: next });
    return next;
  }
  if (next === "stuck") {
    const failed = toInt(row.failed);
    await appendEvent(u, {
      goalId,
      name: "goal_stuck",
      data: { from, to: next, cause, failed_tasks: failed },
    });
    const text = `The goal is stuck: ${failed} failed task(s) remain and no task can be claimed, worked on or verified. The owner can cancel the failed tasks, approve a new task tree, or cancel the goal.`;
    await postToGoalChannel(u, goalId, text, { goal_status: next });
    if (row.coordinatorAgentId !== null) {
      await insertMessage(u, {
        goalId,
        recipientAgentId: toInt(row.coordinatorAgentId),
        sender: { kind: "system" },
        kind: "system",
        content: `${text} You may propose a new task tree (propose_task_tree) for the work that failed.`,
        meta: { goal_status: next },
      });
    }
    return next;
  }
  await appendEvent(u, { goalId, name: "goal_unstuck", data: { from, to: next, cause } });
  await postToGoalChannel(u, goalId, "The goal has work again: it is active.", { goal_status: next });
  return next;
}

/** What the goal page's lifecycle panel shows: the goal's status and (for a stuck goal) its failed tasks. */
export async function goalLifecycleView(goalId: number) {
  return read(async ({ db }) => {
    const goal = await db.goal.findUnique({ where: { id: goalId }, select: { status: true } });
    const failed =
      goal?.status === "stuck"
        ? await db.goalTask.findMany({
            where: { goalId, status: "failed" },
            select: { id: true, title: true, verdictReason: true },
            orderBy: { id: "asc" },
            take: 50,
          })
        : [];
    return { goal, failed };
  });
}
