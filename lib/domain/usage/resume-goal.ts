import { z } from "zod";
import { type Unit, write } from "@/lib/db";
import { withTokenNumbers } from "@/lib/db/rows";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { settleGoal } from "@/lib/domain/goals/lifecycle";
import { ownedGoal } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT, MAX_TOKEN_BUDGET } from "@/lib/ids";

/** `resume_goal` (goals-and-spawning contract §8), also the body of `POST /api/goals/:id/resume` (without goal_id). */
export const resumeGoalInput = z.strictObject({
  goal_id: z.number().int().positive().max(MAX_DB_INT),
  new_budget_dollars_cents: z.number().int().min(0).max(2_000_000_000).optional(),
  new_budget_tokens: z.number().int().min(0).max(MAX_TOKEN_BUDGET).optional(),
});
export const resumeGoalOutput = z.object({ goal_id: z.number().int(), status: z.string() });
export type ResumeGoalInput = z.output<typeof resumeGoalInput>;

/**
 * Resume a paused goal, with new budgets when given. Refused when the goal is not paused
 * (`goal_not_paused`), finished (`goal_finished`), or when it would resume at or over a budget
 * (`budget_still_exhausted`: raise the budget). One conditional update checks status and spend
 * together, so a resume racing a report or another resume cannot resume into an exhausted budget.
 * The 80 % alert is re-armed when the spend is below 80 % of the (new) budgets.
 */
export async function resumeInUnit(
  u: Unit,
  goalId: number,
  input: { new_budget_dollars_cents?: number; new_budget_tokens?: number },
  by: string,
): Promise<{ goal_id: number; status: string }> {
  const row = await u.db.goal.findUnique({ where: { id: goalId } });
  if (!row) throw new DomainError("not_found", `goal ${goalId} not found`);
  const goal = withTokenNumbers(row);
  if (FINISHED_GOAL_STATUSES.includes(goal.status)) {
    throw new DomainError("goal_finished", `Goal ${goalId} is ${goal.status}; it cannot be resumed.`, {
      details: { goal_id: goalId, status: goal.status },
    });
  }
  if (goal.status !== "paused") {
    throw new DomainError("goal_not_paused", `Goal ${goalId} is ${goal.status}, not paused.`, {
      details: { goal_id: goalId, status: goal.status },
    });
  }
  const budgetCents = input.new_budget_dollars_cents ?? goal.budgetCents;
  const budgetTokens = input.new_budget_tokens ?? goal.budgetTokens;
  // spentCents < budget ⇔ spent (with its micro-cents) < budget, since the micro-cents are under one cent.
  const exhausted =
    (budgetCents !== null && goal.spentCents >= budgetCents) ||
    (budgetTokens !== null && goal.spentTokens >= budgetTokens);
  if (exhausted) {
    throw new DomainError(
      "budget_still_exhausted",
      `Goal ${goalId} has spent $${(goal.spentCents / 100).toFixed(2)} and ${goal.spentTokens} tokens; a budget of ${
        budgetCents === null ? "no limit" : `$${(budgetCents / 100).toFixed(2)}`
      } and ${budgetTokens === null ? "no token limit" : `${budgetTokens} tokens`} is spent already.`,
      {
        details: {
          goal_id: goalId,
          spent_cents: goal.spentCents,
          spent_tokens: goal.spentTokens,
          budget_dollars_cents: budgetCents,
          budget_tokens: budgetTokens,
        },
      },
    );
  }
  const belowAlert =
    (budgetCents === null || goal.spentCents * 10 < budgetCents * 8) &&
    (budgetTokens === null || BigInt(goal.spentTokens) * 10n < BigInt(budgetTokens) * 8n);
  const now = new Date();
  const won = await u.db.goal.updateMany({
    where: {
      id: goalId,
      status: "paused",
      ...(budgetCents === null ? {} : { spentCents: { lt: budgetCents } }),
      ...(budgetTokens === null ? {} : { spentTokens: { lt: budgetTokens } }),
    },
    data: {
      status: "active",
      pausedReason: null,
      pausedAt: null,
      budgetCents,
      budgetTokens,
      updatedAt: now,
      ...(belowAlert ? { budgetAlertedAt: null } : {}),
    },
  });
  if (won.count !== 1) {
    // Spend or another decision landed between the read and the update: say what holds now.
    throw new DomainError("goal_not_paused", `Goal ${goalId} changed while resuming; reload and try again.`, {
      details: { goal_id: goalId },
    });
  }
  await appendEvent(u, {
    goalId,
    name: "goal.resumed",
    data: { by, budget_dollars_cents: budgetCents, budget_tokens: budgetTokens },
  });
  const budgets = [
    budgetCents === null ? null : `$${(budgetCents / 100).toFixed(2)}`,
    budgetTokens === null ? null : `${budgetTokens} tokens`,
  ].filter(Boolean);
  await postToGoalChannel(
    u,
    goalId,
    `The owner resumed this goal${budgets.length ? ` (budget: ${budgets.join(", ")})` : ""}. Work may go on.`,
  );
  // Resumed into a state its tasks no longer support (every open task failed): stuck, or every task
  // finished meanwhile: completed (lib/domain/goals/lifecycle.ts).
  const settled = await settleGoal(u, goalId, "resumed");
  return { goal_id: goalId, status: settled ?? "active" };
}

/** `resume_goal` for an owner: their own goal only (another owner's is not_found). */
export async function resumeGoal(ownerId: number, input: ResumeGoalInput) {
  return write(async (u) => {
    await ownedGoal(u, ownerId, input.goal_id);
    return resumeInUnit(u, input.goal_id, input, "owner");
  });
}
