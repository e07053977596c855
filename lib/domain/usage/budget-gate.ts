import { read } from "@/lib/db";
import type { SqlInt } from "@/lib/db/rows";
import { toInt } from "@/lib/db/rows";
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

type Row = {
  status: string;
  pausedReason: string | null;
  taskId: SqlInt | null;
  spentCents: SqlInt | null;
  spentTokens: SqlInt | null;
  budgetCents: SqlInt | null;
  budgetTokens: SqlInt | null;
};

/**
 * Runs before an agent's tool call, beside the review gate (lib/mcp/server.ts): refuses a gated tool on a
 * paused goal (`ErrGoalBudgetExceeded`), and claim_task / complete_task on a task that has spent its own
 * budget (`ErrTaskBudgetExceeded`). One read, only for gated tools (hand-written SQL: per call).
 * A pause that commits after this check and before the tool's own unit lets that one call through; every
 * later call is refused (docs/budgets.md).
 */
export async function beforeBudgetedTool(
  caller: { agentId: number; goalId: number },
  tool: string,
  args: unknown,
): Promise<void> {
  if (!BUDGET_GATED.has(tool)) return;
  const rawTask = TASK_BUDGET_GATED.has(tool)
    ? (args as { task_id?: unknown } | undefined)?.task_id
    : undefined;
  const taskId = typeof rawTask === "number" ? rawTask : null;
  const row = await read(({ sql }) =>
    sql.get<Row>(
      `SELECT g.status, g."pausedReason", t.id AS "taskId", t."spentCents", t."spentTokens", t."budgetCents", t."budgetTokens"
       FROM "Goal" g LEFT JOIN "GoalTask" t ON t.id = ? AND t."goalId" = g.id WHERE g.id = ?`,
      taskId,
      caller.goalId,
    ),
  );
  if (!row) return;
  if (row.status === "paused") {
    const manual = row.pausedReason === "manual";
    throw new DomainError(
      "ErrGoalBudgetExceeded",
      manual
        ? `The owner paused this goal: ${tool} is refused until it is resumed.`
        : `This goal's budget is spent and the goal is paused: ${tool} is refused until the owner resumes it.`,
      { details: { goal_id: caller.goalId, tool, reason: row.pausedReason ?? "budget" } },
    );
  }
  if (row.taskId === null) return;
  const spentCents = toInt(row.spentCents ?? 0);
  const spentTokens = toInt(row.spentTokens ?? 0);
  const budgetCents = row.budgetCents === null ? null : toInt(row.budgetCents);
  const budgetTokens = row.budgetTokens === null ? null : toInt(row.budgetTokens);
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
