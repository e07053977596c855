import { z } from "zod";
import { type Unit, write } from "@/lib/db";
import { type SqlDate, type SqlInt, toInt } from "@/lib/db/rows";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { DomainError, notFound } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { crossings, onBudgetCrossed } from "./budget";
import { costMicros, priceOf } from "./prices";

/** Largest count of one token kind in one report; above it a report is refused as absurd. */
export const MAX_TOKENS_PER_REPORT = 100_000_000;
/** Largest cost of one report, in cents ($10,000). */
export const MAX_CENTS_PER_REPORT = 1_000_000;
export const MICROS_PER_CENT = 1_000_000;

const tokens = z.number().int().min(0).max(MAX_TOKENS_PER_REPORT);

/** `report_usage` input (the agent's own report); the runner's reports use `UsageReport` directly. */
export const reportUsageInput = z.strictObject({
  model: z.string().trim().min(1).max(200).describe("the model that did the work, e.g. claude-sonnet-4-5"),
  input_tokens: tokens,
  output_tokens: tokens,
  cache_read_tokens: tokens.optional(),
  cache_write_tokens: tokens.optional(),
  cost_cents: z
    .number()
    .int()
    .min(0)
    .max(MAX_CENTS_PER_REPORT)
    .optional()
    .describe("the list-price cost in cents, when you know it; otherwise it comes from the price table"),
  task_id: z
    .number()
    .int()
    .positive()
    .max(MAX_DB_INT)
    .optional()
    .describe("the goal task the work was for; default: the task you hold"),
  billing_type: z
    .enum(["api", "subscription"])
    .optional()
    .describe(
      "api (default): billed per token; subscription: a logged-in plan (the list price is still recorded)",
    ),
  idempotency_key: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("unique per report (e.g. the turn's id): a retried report with the same key counts once"),
});

export const reportUsageOutput = z.object({
  usage_id: z.number().int(),
  duplicate: z
    .boolean()
    .describe("true when this idempotency_key was reported before (nothing counted again)"),
  task_id: z.number().int().nullable(),
  billing_code: z.string().nullable(),
  tokens: z.number().int(),
  cost_cents: z.number().int(),
  cost_micro_cents: z
    .number()
    .int()
    .describe("the fraction of a cent beyond cost_cents, in millionths of a cent"),
  goal_status: z.string(),
});

/** One report of spend, from the runner (each turn it observes) or from an agent (report_usage). */
export type UsageReport = {
  agentId: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** The cost when known (cents and, optionally, the fraction beyond them in micro-cents); else the price table. */
  costCents?: number;
  costMicros?: number;
  /** The goal task; default: the task the agent holds (claimed or in progress), if any. */
  taskId?: number;
  source: "runner" | "agent";
  billingType?: "api" | "subscription";
  /** Unique per agent: a report retried with the same key is recorded once. */
  idempotencyKey: string;
  /** Test aid and the runner's own clock: when the spend happened (default now). */
  at?: Date;
};

export type UsageResult = z.output<typeof reportUsageOutput> & {
  goal_id: number;
  alerted: boolean;
  paused: boolean;
};

type AgentRow = { goalId: number; goalStatus: string; slug: string };
type TaskRow = { id: number; goalId: number; billingCode: string | null };
type GoalRow = {
  spentCents: SqlInt;
  spentMicros: SqlInt;
  spentTokens: SqlInt;
  budgetCents: SqlInt | null;
  budgetTokens: SqlInt | null;
  budgetAlertedAt: SqlDate | null;
  status: string;
};

/**
 * An integer parameter in arithmetic: SQLite may bind a JS number as REAL, and REAL / 1000000 would keep
 * the fraction (the carry must be integer division on both providers).
 */
const I = "CAST(? AS INTEGER)";

const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
const dayOf = (d: Date) => new Date(Math.floor(d.getTime() / 86_400_000) * 86_400_000);

function checkCounts(r: UsageReport): void {
  const counts = {
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cache_read_tokens: r.cacheReadTokens ?? 0,
    cache_write_tokens: r.cacheWriteTokens ?? 0,
  };
  for (const [field, v] of Object.entries(counts)) {
    if (!Number.isInteger(v) || v < 0 || v > MAX_TOKENS_PER_REPORT) {
      throw new DomainError(
        "invalid_input",
        `${field} must be an integer from 0 to ${MAX_TOKENS_PER_REPORT}.`,
        {
          details: { field },
        },
      );
    }
  }
  const c = r.costCents ?? 0;
  const m = r.costMicros ?? 0;
  if (
    !Number.isInteger(c) ||
    c < 0 ||
    c > MAX_CENTS_PER_REPORT ||
    !Number.isInteger(m) ||
    m < 0 ||
    m >= MICROS_PER_CENT
  ) {
    throw new DomainError(
      "invalid_input",
      `cost_cents must be an integer from 0 to ${MAX_CENTS_PER_REPORT}.`,
      {
        details: { field: "cost_cents" },
      },
    );
  }
}

/**
 * Record one report of spend, and roll it up in the same transaction: the Usage row (once per
 * idempotency key), the goal's counters, the task's and every ancestor task's, the hourly and daily buckets of
 * (goal, agent, task, billing code, model, billing type) and the goal's hour (`UsageGoalHour`); then the budget rules on the goal's new totals
 * (80 %: one alert; 100 %: the goal paused), all in this one unit. A paused goal still records spend (the
 * turn that crossed the line was spent); a completed or cancelled one refuses with `goal_finished`.
 *
 * The runner calls this for every turn it observes (source `runner`); `report_usage` with source `agent`.
 */
export async function recordUsage(r: UsageReport): Promise<UsageResult> {
  checkCounts(r);
  const t = {
    input: r.inputTokens,
    output: r.outputTokens,
    cacheRead: r.cacheReadTokens ?? 0,
    cacheWrite: r.cacheWriteTokens ?? 0,
  };
  // The price is looked up before the unit (no slow work inside it); unknown_model records nothing.
  const total =
    r.costCents !== undefined
      ? r.costCents * MICROS_PER_CENT + (r.costMicros ?? 0)
      : costMicros(priceOf(r.model), t);
  const cents = Math.floor(total / MICROS_PER_CENT);
  const micros = total % MICROS_PER_CENT;
  const tokenSum = t.input + t.output + t.cacheRead + t.cacheWrite;
  const at = r.at ?? new Date();
  const billingType = r.billingType ?? "api";
  return write(async (u) => {
    const agent = await u.sql.get<AgentRow>(
      `SELECT a."goalId", g.status AS "goalStatus", g.slug FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId" WHERE a.id = ?`,
      r.agentId,
    );
    if (!agent) throw notFound(`agent ${r.agentId}`);
    const goalId = agent.goalId;
    if (FINISHED_GOAL_STATUSES.includes(agent.goalStatus)) {
      throw new DomainError(
        "goal_finished",
        `Goal ${goalId} is ${agent.goalStatus}; it records no more usage.`,
        {
          details: { goal_id: goalId, status: agent.goalStatus },
        },
      );
    }
    const task = await resolveTask(u, goalId, r.agentId, r.taskId);
    const billingCode = task?.billingCode ?? agent.slug;
    const inserted = await u.sql.get<{ id: SqlInt }>(
      `INSERT INTO "Usage" ("goalId", "agentId", "taskId", "billingCode", tokens, cents, "createdAt", model,
         "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", micros, source, "billingType", "idempotencyKey")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("agentId", "idempotencyKey") DO NOTHING RETURNING id`,
      goalId,
      r.agentId,
      task?.id ?? null,
      billingCode,
      tokenSum,
      cents,
      at,
      r.model,
      t.input,
      t.output,
      t.cacheRead,
      t.cacheWrite,
      micros,
      r.source,
      billingType,
      r.idempotencyKey,
    );
    if (!inserted) return duplicateOf(u, r.agentId, r.idempotencyKey, agent.goalStatus);
    // The hourly bucket and the daily one: the same upsert on two tables (rows of this agent, task, code and
    // model: other reports of the goal rarely wait on them).
    for (const [table, col, at0] of [
      ["UsageBucket", "hour", hourOf(at)],
      ["UsageDay", "day", dayOf(at)],
    ] as const) {
      await u.sql.run(
        `INSERT INTO "${table}" ("goalId", ${col}, "agentId", "taskId", "billingCode", model, "billingType", reports,
           "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros)
         VALUES (?, ?, ?, ?, ?, ?, ?, 1, ${I}, ${I}, ${I}, ${I}, ${I}, ${I}, ${I})
         ON CONFLICT ("goalId", ${col}, "agentId", "taskId", "billingCode", model, "billingType") DO UPDATE SET
           reports = "${table}".reports + 1,
           "inputTokens" = "${table}"."inputTokens" + excluded."inputTokens",
           "outputTokens" = "${table}"."outputTokens" + excluded."outputTokens",
           "cacheReadTokens" = "${table}"."cacheReadTokens" + excluded."cacheReadTokens",
           "cacheWriteTokens" = "${table}"."cacheWriteTokens" + excluded."cacheWriteTokens",
           tokens = "${table}".tokens + excluded.tokens,
           cents = "${table}".cents + excluded.cents + ("${table}".micros + excluded.micros) / ${MICROS_PER_CENT},
           micros = ("${table}".micros + excluded.micros) % ${MICROS_PER_CENT}`,
        goalId,
        at0,
        r.agentId,
        task?.id ?? 0,
        billingCode,
        r.model,
        billingType,
        t.input,
        t.output,
        t.cacheRead,
        t.cacheWrite,
        tokenSum,
        cents,
        micros,
      );
    }
    // The counter update takes the goal's row lock (PostgreSQL) until commit, so the alert and pause
    // decisions below see every earlier report and no later one: exactly one alert, exactly one pause.
    // Every report of the goal queues on that row (and on the goal's hour below), so they come last: the
    // lock is held for the counters, the tasks and the goal's hour sent with the COMMIT (3 round trips on
    // PostgreSQL, was 6). Goal before tasks, like every gated tool (docs/budgets.md), so no deadlock.
    const goal = (await u.sql.get<GoalRow>(
      `UPDATE "Goal" SET "spentCents" = "spentCents" + ${I} + ("spentMicros" + ${I}) / ${MICROS_PER_CENT},
         "spentMicros" = ("spentMicros" + ${I}) % ${MICROS_PER_CENT}, "spentTokens" = "spentTokens" + ${I}
       WHERE id = ? RETURNING "spentCents", "spentMicros", "spentTokens", "budgetCents", "budgetTokens", "budgetAlertedAt", status`,
      cents,
      micros,
      micros,
      tokenSum,
      goalId,
    )) as GoalRow;
    if (task) {
      // The task and every ancestor, in one statement (a recursive walk up parentId).
      await u.sql.run(
        `WITH RECURSIVE anc(id) AS (
           SELECT ${I} UNION ALL SELECT t."parentId" FROM "GoalTask" t JOIN anc ON t.id = anc.id WHERE t."parentId" IS NOT NULL)
         UPDATE "GoalTask" SET "spentCents" = "spentCents" + ${I} + ("spentMicros" + ${I}) / ${MICROS_PER_CENT},
           "spentMicros" = ("spentMicros" + ${I}) % ${MICROS_PER_CENT}, "spentTokens" = "spentTokens" + ${I}
         WHERE id IN (SELECT id FROM anc)`,
        task.id,
        cents,
        micros,
        micros,
        tokenSum,
      );
    }
    const spent = {
      micros: toInt(goal.spentCents) * MICROS_PER_CENT + toInt(goal.spentMicros),
      tokens: toInt(goal.spentTokens),
    };
    const budget = {
      cents: goal.budgetCents === null ? null : toInt(goal.budgetCents),
      tokens: goal.budgetTokens === null ? null : toInt(goal.budgetTokens),
    };
    const c = crossings(spent, budget);
    const effects = await onBudgetCrossed(u, {
      goalId,
      agentId: r.agentId,
      alertDue: c.alert && goal.budgetAlertedAt === null,
      pauseDue: c.exhausted && goal.status !== "paused",
      spent,
      budget,
    });
    u.notify(`goal:${goalId}`);
    // The goal's hour (every agent, task, code and model): the time series of the cost views reads these.
    // The unit's last statement, sent with its COMMIT.
    await u.commitWith(
      `INSERT INTO "UsageGoalHour" ("goalId", hour, "billingType", reports,
         "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros)
       VALUES (?, ?, ?, 1, ${I}, ${I}, ${I}, ${I}, ${I}, ${I}, ${I})
       ON CONFLICT ("goalId", hour, "billingType") DO UPDATE SET
         reports = "UsageGoalHour".reports + 1,
         "inputTokens" = "UsageGoalHour"."inputTokens" + excluded."inputTokens",
         "outputTokens" = "UsageGoalHour"."outputTokens" + excluded."outputTokens",
         "cacheReadTokens" = "UsageGoalHour"."cacheReadTokens" + excluded."cacheReadTokens",
         "cacheWriteTokens" = "UsageGoalHour"."cacheWriteTokens" + excluded."cacheWriteTokens",
         tokens = "UsageGoalHour".tokens + excluded.tokens,
         cents = "UsageGoalHour".cents + excluded.cents + ("UsageGoalHour".micros + excluded.micros) / ${MICROS_PER_CENT},
         micros = ("UsageGoalHour".micros + excluded.micros) % ${MICROS_PER_CENT}
       RETURNING reports`,
      goalId,
      hourOf(at),
      billingType,
      t.input,
      t.output,
      t.cacheRead,
      t.cacheWrite,
      tokenSum,
      cents,
      micros,
    );
    return {
      usage_id: toInt(inserted.id),
      duplicate: false,
      goal_id: goalId,
      task_id: task?.id ?? null,
      billing_code: billingCode,
      tokens: tokenSum,
      cost_cents: cents,
      cost_micro_cents: micros,
      goal_status: effects.paused ? "paused" : goal.status,
      alerted: effects.alerted,
      paused: effects.paused,
    };
  });
}

/** The task a report is for: the given one (of the agent's goal; else not_found), else the one the agent holds. */
async function resolveTask(
  u: Unit,
  goalId: number,
  agentId: number,
  taskId?: number,
): Promise<TaskRow | undefined> {
  if (taskId !== undefined) {
    const task = await u.sql.get<TaskRow>(
      `SELECT id, "goalId", "billingCode" FROM "GoalTask" WHERE id = ?`,
      taskId,
    );
    if (!task || task.goalId !== goalId) throw notFound(`task ${taskId}`);
    return task;
  }
  return u.sql.get<TaskRow>(
    `SELECT id, "goalId", "billingCode" FROM "GoalTask"
     WHERE "assigneeId" = ? AND "goalId" = ? AND status IN ('claimed', 'in_progress') ORDER BY "claimedAt" DESC, id DESC LIMIT 1`,
    agentId,
    goalId,
  );
}

/** A retried report: the first one's figures, nothing counted again. */
async function duplicateOf(u: Unit, agentId: number, key: string, goalStatus: string): Promise<UsageResult> {
  const row = await u.db.usage.findUnique({
    where: { agentId_idempotencyKey: { agentId, idempotencyKey: key } },
  });
  if (!row) throw new Error("recordUsage: a conflicting usage row vanished");
  return {
    usage_id: row.id,
    duplicate: true,
    goal_id: row.goalId,
    task_id: row.taskId,
    billing_code: row.billingCode,
    tokens: row.tokens,
    cost_cents: row.cents,
    cost_micro_cents: row.micros,
    goal_status: goalStatus,
    alerted: false,
    paused: false,
  };
}
