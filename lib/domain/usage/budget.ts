import type { Unit } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { escalateToOwner } from "@/lib/domain/owner-gateway";

/** Share of a budget at which the one alert is posted. */
export const ALERT_AT = 0.8;
const MICROS = 1_000_000n;

export type Spent = { micros: number; tokens: number };
export type Budget = { cents: number | null; tokens: number | null };

/**
 * Where spend stands against the budget: `alert` at ≥ 80 % of either budget, `exhausted` at ≥ 100 % of
 * either. A null budget is no limit; a budget of 0 is exhausted by any spend. BigInt: micro-cents of a
 * large budget pass 2^53.
 */
export function crossings(
  spent: Spent,
  budget: Budget,
): { alert: boolean; exhausted: boolean; percent: number } {
  const sm = BigInt(spent.micros);
  const st = BigInt(spent.tokens);
  let alert = false;
  let exhausted = false;
  let percent = 0;
  if (budget.cents !== null) {
    const b = BigInt(budget.cents) * MICROS;
    if (sm * 10n >= b * 8n) alert = true;
    if (sm >= b) exhausted = true;
    if (budget.cents > 0) percent = Math.max(percent, (spent.micros / 1e6 / budget.cents) * 100);
  }
  if (budget.tokens !== null) {
    const b = BigInt(budget.tokens);
    if (st * 10n >= b * 8n) alert = true;
    if (st >= b) exhausted = true;
    if (budget.tokens > 0) percent = Math.max(percent, (spent.tokens / budget.tokens) * 100);
  }
  return { alert: alert && (sm > 0n || st > 0n), exhausted: exhausted && (sm > 0n || st > 0n), percent };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function describeSpend(spent: Spent, budget: Budget): string {
  const parts: string[] = [];
  const cents = Math.floor(spent.micros / 1e6);
  if (budget.cents !== null) parts.push(`${dollars(cents)} of ${dollars(budget.cents)}`);
  if (budget.tokens !== null) parts.push(`${spent.tokens} of ${budget.tokens} tokens`);
  return parts.join(", ");
}

function figures(spent: Spent, budget: Budget) {
  return {
    spent_cents: Math.floor(spent.micros / 1e6),
    spent_tokens: spent.tokens,
    budget_dollars_cents: budget.cents,
    budget_tokens: budget.tokens,
    percent: Math.floor(crossings(spent, budget).percent),
  };
}

/**
 * The budget rules, inside the unit that recorded the spend (the goal's row is locked by its counter
 * update): the 80 % alert at most once (`budgetAlertedAt` set by a conditional update), the pause at most
 * once (a conditional update from a running status). Returns what happened.
 */
export async function onBudgetCrossed(
  u: Unit,
  c: { goalId: number; agentId: number; alertDue: boolean; pauseDue: boolean; spent: Spent; budget: Budget },
): Promise<{ alerted: boolean; paused: boolean }> {
  let alerted = false;
  let paused = false;
  const now = new Date();
  if (c.alertDue) {
    const won = await u.db.goal.updateMany({
      where: { id: c.goalId, budgetAlertedAt: null },
      data: { budgetAlertedAt: now },
    });
    if (won.count === 1) {
      alerted = true;
      const text = `Budget alert: this goal has spent ${describeSpend(c.spent, c.budget)} (${Math.floor(crossings(c.spent, c.budget).percent)} %). At 100 % it is paused and work is refused.`;
      await appendEvent(u, {
        goalId: c.goalId,
        name: "budget.alert",
        agentId: c.agentId,
        data: figures(c.spent, c.budget),
      });
      await postToGoalChannel(u, c.goalId, text, { budget: "alert" });
      await escalateToOwner(u, {
        kind: "budget_alert",
        goalId: c.goalId,
        agentId: await aboutAgent(u, c.goalId, c.agentId),
        text,
      });
    }
  }
  if (c.pauseDue) {
    paused = await pauseInUnit(u, c.goalId, "budget", c.agentId, c.spent, c.budget);
  }
  return { alerted, paused };
}

/** The agent an owner notice is "about": the goal's coordinator, else the reporting agent. */
async function aboutAgent(u: Unit, goalId: number, fallback: number): Promise<number> {
  const g = await u.db.goal.findUnique({ where: { id: goalId }, select: { coordinatorAgentId: true } });
  return g?.coordinatorAgentId ?? fallback;
}

/**
 * Pause a running goal (budget or manual) in the caller's unit: a conditional update, so of racing
 * pauses exactly one changes the row and posts the notice. False when it was not running.
 */
export async function pauseInUnit(
  u: Unit,
  goalId: number,
  reason: "budget" | "manual",
  agentId: number | null,
  spent: Spent,
  budget: Budget,
): Promise<boolean> {
  const now = new Date();
  const won = await u.db.goal.updateMany({
    where: { id: goalId, status: { in: ["draft", "active", "stuck"] } },
    data: { status: "paused", pausedReason: reason, pausedAt: now, updatedAt: now },
  });
  if (won.count !== 1) return false;
  // Runners see the pause at their next lease renewal ("stop": the agent ends and is queued again) and
  // launch nothing for a paused goal (lib/domain/runner/launch-jobs.ts).
  await appendEvent(u, { goalId, name: "goal.paused", agentId, data: { reason, ...figures(spent, budget) } });
  const text =
    reason === "budget"
      ? `Budget exhausted: ${describeSpend(spent, budget)}. The goal is paused; tools that start or continue work refuse with ErrGoalBudgetExceeded until the owner resumes it.`
      : "The owner paused this goal; tools that start or continue work refuse with ErrGoalBudgetExceeded until it is resumed.";
  await postToGoalChannel(u, goalId, text, { budget: "paused", reason });
  if (reason === "budget") {
    await escalateToOwner(u, {
      kind: "budget_paused",
      goalId,
      agentId: await aboutAgent(u, goalId, agentId ?? 0),
      text,
    });
  }
  return true;
}
