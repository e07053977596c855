import { read, type Unit } from "@/lib/db";
import type { SqlInt } from "@/lib/db/rows";
import { toInt } from "@/lib/db/rows";
import { lockGoal } from "@/lib/domain/goals/lock-goal";
import { DomainError } from "@/lib/errors";

/**
 * The tools that start or continue work for a goal; while the goal is paused (budget spent, or paused by
 * the owner) each refuses with `ErrGoalBudgetExceeded`. Everything else keeps working, so an agent can
 * finish its turn: reading (read_inbox, list_peers, list_tasks, list_ready, list_pending_reviews, whoami),
 * talking (send_message, ask_user, answer_question, escalate_question), ending work (signal_review,
 * request_termination, terminate_child, remove_plan) and report_usage. docs/budgets.md keeps this list.
 */
export const BUDGET_GATED = new Set([
  "claim_task",
  "complete_task",
  "verify_task",
  "propose_task_tree",
  "declare_plan",
  "update_plan_task",
  "spawn_agent",
  "create_team",
  // issue 13: propose_agent is refused the same way once it exists (the gate goes by name).
  "propose_agent",
]);

/** Of those, the tools that name a goal task (`task_id`), which a task over its own budget blocks. */
export const TASK_BUDGET_GATED = new Set(["claim_task", "complete_task"]);

type GoalRow = { status: string; pausedReason: string | null };
type TaskRow = {
  taskId: SqlInt | null;
  spentCents: SqlInt | null;
  spentTokens: SqlInt | null;
  budgetCents: SqlInt | null;
  budgetTokens: SqlInt | null;
};

/** The task a gated call names, when the tool is one a task's own budget blocks. */
function gatedTask(tool: string, args: unknown): number | null {
  if (!TASK_BUDGET_GATED.has(tool)) return null;
  const raw = (args as { task_id?: unknown } | undefined)?.task_id;
  return typeof raw === "number" ? raw : null;
}

/** The refusal (if any) of a gated call, from the goal's row and the named task's. */
function refuse(
  goalId: number,
  tool: string,
  goal: GoalRow,
  task: TaskRow | undefined,
  taskId: number | null,
): void {
  if (goal.status === "paused") {
    const manual = goal.pausedReason === "manual";
    throw new DomainError(
      "ErrGoalBudgetExceeded",
      manual
        ? `The owner paused this goal: ${tool} is refused until it is resumed.`
        : `This goal's budget is spent and the goal is paused: ${tool} is refused until the owner resumes it.`,
      { details: { goal_id: goalId, tool, reason: goal.pausedReason ?? "budget" } },
    );
  }
  if (!task || task.taskId === null || task.taskId === undefined) return;
  const spentCents = toInt(task.spentCents ?? 0);
  const spentTokens = toInt(task.spentTokens ?? 0);
  const budgetCents = task.budgetCents === null ? null : toInt(task.budgetCents);
  const budgetTokens = task.budgetTokens === null ? null : toInt(task.budgetTokens);
  const over =
    (budgetCents !== null && spentCents >= budgetCents) ||
    (budgetTokens !== null && spentTokens >= budgetTokens);
  if (over && (spentCents > 0 || spentTokens > 0)) {
    throw new DomainError(
      "ErrTaskBudgetExceeded",
      `Task ${taskId} has spent its budget: ${tool} is refused for it.`,
      {
        details: {
          task_id: taskId,
          tool,
          spent_cents: spentCents,
          spent_tokens: spentTokens,
          budget_dollars_cents: budgetCents,
          budget_tokens: budgetTokens,
        },
      },
    );
  }
}

const TASK_SQL = `SELECT id AS "taskId", "spentCents", "spentTokens", "budgetCents", "budgetTokens" FROM "GoalTask" WHERE id = ? AND "goalId" = ?`;

/**
 * Runs before an agent's tool call, beside the review gate (lib/mcp/server.ts): refuses a gated tool on a
 * paused goal (`ErrGoalBudgetExceeded`), and claim_task / complete_task on a task that has spent its own
 * budget (`ErrTaskBudgetExceeded`). One read, only for gated tools (hand-written SQL: per call). This early
 * refusal spares the tool its own work; the decisive check is `holdGoalUnpaused`, inside the tool's unit.
 */
export async function beforeBudgetedTool(
  caller: { agentId: number; goalId: number },
  tool: string,
  args: unknown,
): Promise<void> {
  if (!BUDGET_GATED.has(tool)) return;
  const taskId = gatedTask(tool, args);
  const row = await read(({ sql }) =>
    sql.get<GoalRow & TaskRow>(
      `SELECT g.status, g."pausedReason", t.id AS "taskId", t."spentCents", t."spentTokens", t."budgetCents", t."budgetTokens"
       FROM "Goal" g LEFT JOIN "GoalTask" t ON t.id = ? AND t."goalId" = g.id WHERE g.id = ?`,
      taskId,
      caller.goalId,
    ),
  );
  if (!row) return;
  refuse(caller.goalId, tool, row, row, taskId);
}

/**
 * The gate inside a gated tool's own write unit, as its first statement: takes the goal's row lock
 * (`lockGoal`) and reads
 * the goal's state under it, then the named task's budget. A pause commits either before (this unit waits
 * for its lock, then sees `paused` and refuses) or after this unit (whose work then happened before the
 * pause): no call slips through between the early check and the tool's write. Every tool in
 * `BUDGET_GATED` calls it (tests/integration/budget-gate-race.test.ts).
 */
export async function holdGoalUnpaused(
  u: Unit,
  goalId: number,
  tool: string,
  taskId?: number,
): Promise<void> {
  const goal = await lockGoal(u, goalId);
  if (!goal) return;
  const t = taskId !== undefined && TASK_BUDGET_GATED.has(tool) ? taskId : null;
  const task = t === null ? undefined : await u.sql.get<TaskRow>(TASK_SQL, t, goalId);
  refuse(goalId, tool, goal, task, t);
}
