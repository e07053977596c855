import { z } from "zod";
import { type ReadUnit, read } from "@/lib/db";
import { type SqlDate, type SqlInt, toDate, toInt } from "@/lib/db/rows";
import { billingTree, rollUp, type TreeNode } from "./billing-tree";
import { MICROS_PER_CENT } from "./record-usage";

export const GROUP_BY = ["agent", "task", "billing_code", "model"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** `GET /api/goals/:id/costs` query (strings from the URL). */
export const costsQuery = z.strictObject({
  group_by: z.enum(GROUP_BY).default("agent"),
  bucket: z.enum(["hour", "day"]).default("day"),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("inclusive, ISO 8601; default: 30 days before `to`"),
  to: z.iso.datetime({ offset: true }).optional().describe("exclusive, ISO 8601; default: now"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe("top N groups; the rest are summed as `other`"),
});
export type CostsQuery = z.output<typeof costsQuery>;

export type Amount = {
  cents: number;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** Of `cents`, what ran on an API key (billed per token); the rest ran on a subscription at list price. */
  api_cents: number;
  subscription_cents: number;
  reports: number;
};

export type SumRow = {
  key: string | number | null;
  billingType: string;
  cents: SqlInt;
  micros: SqlInt;
  tokens: SqlInt;
  inputTokens: SqlInt;
  outputTokens: SqlInt;
  cacheReadTokens: SqlInt;
  cacheWriteTokens: SqlInt;
  reports: SqlInt;
};

export const SUMS = `"billingType", SUM(cents) AS cents, SUM(micros) AS micros, SUM(tokens) AS tokens, SUM("inputTokens") AS "inputTokens",
  SUM("outputTokens") AS "outputTokens", SUM("cacheReadTokens") AS "cacheReadTokens", SUM("cacheWriteTokens") AS "cacheWriteTokens",
  SUM(reports) AS reports`;

/** The columns of one goal-level hour row (`UsageGoalHour`), named as `SUMS` names its sums. */
const SERIES = `"billingType", cents, micros, tokens, "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", reports`;

const KEY: Record<GroupBy, string> = {
  agent: `"agentId"`,
  task: `"taskId"`,
  billing_code: `"billingCode"`,
  model: "model",
};

export type Acc = Amount & { micros: number; apiMicros: number };
export const empty = (): Acc => ({
  cents: 0,
  micros: 0,
  apiMicros: 0,
  tokens: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  api_cents: 0,
  subscription_cents: 0,
  reports: 0,
});

export function add(a: Acc, r: SumRow): void {
  const micros = toInt(r.cents) * MICROS_PER_CENT + toInt(r.micros);
  a.micros += micros;
  if (r.billingType === "api") a.apiMicros += micros;
  a.tokens += toInt(r.tokens);
  a.input_tokens += toInt(r.inputTokens);
  a.output_tokens += toInt(r.outputTokens);
  a.cache_read_tokens += toInt(r.cacheReadTokens);
  a.cache_write_tokens += toInt(r.cacheWriteTokens);
  a.reports += toInt(r.reports);
}

/** Rows summed per `key` (a key has one row per billing type). */
export function byKey(rows: SumRow[]): Map<string, Acc> {
  const acc = new Map<string, Acc>();
  for (const r of rows) {
    const k = String(r.key ?? "");
    const a = acc.get(k) ?? empty();
    acc.set(k, a);
    add(a, r);
  }
  return acc;
}

export function done(a: Acc): Amount {
  const cents = Math.floor(a.micros / MICROS_PER_CENT);
  const api = Math.floor(a.apiMicros / MICROS_PER_CENT);
  const { micros: _m, apiMicros: _a, ...rest } = a;
  return { ...rest, cents, api_cents: api, subscription_cents: cents - api };
}

export type CostGroup = Amount & { key: string; label: string };

/** Which roll-up a view reads: the hourly buckets, or the daily ones (24× fewer rows). */
export type Grain = "hour" | "day";
const TABLE: Record<Grain, { table: string; col: string }> = {
  hour: { table: "UsageBucket", col: "hour" },
  day: { table: "UsageDay", col: "day" },
};

const DAY = 86_400_000;

type Span = { table: string; col: string; from: Date; to: Date };

/**
 * The roll-up reads that cover [from, to) exactly: at the daily grain, the daily roll-ups; at the hourly
 * grain, the whole UTC days inside the range from the daily roll-ups (24× fewer rows) and only the hours
 * at either edge from the hourly ones. A day row is the sum of its 24 hour rows (kept in the same
 * transaction), so the groups are the same as from the hours alone; a month by hour reads ~1/24 of the rows.
 */
export function spans(from: Date, to: Date, grain: Grain): Span[] {
  if (grain === "day") return [{ ...TABLE.day, from, to }];
  const d0 = Math.ceil(from.getTime() / DAY) * DAY;
  const d1 = Math.floor(to.getTime() / DAY) * DAY;
  if (d1 <= d0) return [{ ...TABLE.hour, from, to }];
  const out: Span[] = [];
  if (from.getTime() < d0) out.push({ ...TABLE.hour, from, to: new Date(d0) });
  out.push({ ...TABLE.day, from: new Date(d0), to: new Date(d1) });
  if (d1 < to.getTime()) out.push({ ...TABLE.hour, from: new Date(d1), to });
  return out;
}

/** The goal's spend in [from, to) per group key, exact (micro-cents), one GROUP BY per span. */
async function groupAccs(
  u: ReadUnit,
  goalId: number,
  by: GroupBy,
  from: Date,
  to: Date,
  grain: Grain,
): Promise<Map<string, Acc>> {
  const rows: SumRow[] = [];
  for (const { table, col, from: f, to: t } of spans(from, to, grain)) {
    rows.push(
      ...(await u.sql.all<SumRow>(
        `SELECT ${KEY[by]} AS key, ${SUMS} FROM "${table}" WHERE "goalId" = ? AND ${col} >= ? AND ${col} < ?
         GROUP BY ${KEY[by]}, "billingType"`,
        goalId,
        f,
        t,
      )),
    );
  }
  return byKey(rows);
}

/** Labelled groups, largest spend first. */
async function labelled(
  u: ReadUnit,
  goalId: number,
  by: GroupBy,
  acc: Map<string, Acc>,
): Promise<CostGroup[]> {
  const labels = await labelsOf(u, goalId, by, [...acc.keys()]);
  return [...acc]
    .map(([key, a]) => ({ key, label: labels.get(key) ?? key, ...done(a) }))
    .sort((x, y) => y.cents - x.cents || y.tokens - x.tokens || x.key.localeCompare(y.key));
}

/** Groups of the goal's spend in [from, to), largest spend first. */
async function groups(
  u: ReadUnit,
  goalId: number,
  by: GroupBy,
  from: Date,
  to: Date,
  grain: Grain,
): Promise<CostGroup[]> {
  return labelled(u, goalId, by, await groupAccs(u, goalId, by, from, to, grain));
}

async function labelsOf(
  u: ReadUnit,
  goalId: number,
  by: GroupBy,
  keys: string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (by === "agent") {
    const agents = await u.db.agent.findMany({ where: { goalId }, select: { id: true, name: true } });
    for (const a of agents) out.set(String(a.id), a.name);
  } else if (by === "task") {
    const ids = keys.map(Number).filter((n) => n > 0);
    const tasks = ids.length
      ? await u.db.goalTask.findMany({
          where: { goalId, id: { in: ids } },
          select: { id: true, title: true },
        })
      : [];
    for (const t of tasks) out.set(String(t.id), t.title);
    out.set("0", "(no task)");
  } else if (by === "billing_code") {
    out.set("", "(none)");
  }
  return out;
}

/** The top `limit` groups, the rest summed into one `other` row (so thousands of agents stay readable). */
export function topN(
  all: CostGroup[],
  limit: number,
): { groups: CostGroup[]; other: (Amount & { count: number }) | null } {
  if (all.length <= limit) return { groups: all, other: null };
  const rest = all.slice(limit);
  const other: Amount & { count: number } = { count: rest.length, ...done(empty()) };
  for (const g of rest) {
    for (const k of Object.keys(other) as (keyof typeof other)[]) if (k !== "count") other[k] += g[k];
  }
  return { groups: all.slice(0, limit), other };
}

/**
 * The goal's tasks as a cost tree: each task with its subtree's spend in the range (the task breakdown
 * rolled up its parents), `key` the task id ("0": spend on no task), `name` its title.
 */
async function taskTree(u: ReadUnit, goalId: number, perTask: Map<string, Acc>): Promise<TreeNode[]> {
  const tasks = await u.db.goalTask.findMany({
    where: { goalId },
    select: { id: true, parentId: true, title: true },
  });
  const byId = new Map(tasks.map((t) => [String(t.id), t]));
  const pathOf = (key: string): string[] => {
    const path: string[] = [];
    for (let k: string | undefined = key; k !== undefined && path.length <= tasks.length; ) {
      path.unshift(k);
      const parent: number | null | undefined = byId.get(k)?.parentId;
      k = parent === null || parent === undefined ? undefined : String(parent);
    }
    return path;
  };
  return rollUp(
    perTask,
    pathOf,
    (key) => (key === "0" ? "(no task)" : (byId.get(key)?.title ?? `task ${key}`)),
    done,
  );
}

/**
 * `GET /api/goals/:id/costs`: totals, groups (top N + other) and a time series. `bucket=hour` reads the
 * hourly roll-ups; `bucket=day` the daily ones, and then counts whole UTC days (`from` is rounded down and
 * `to` up to midnight).
 */
export async function goalCosts(goalId: number, q: CostsQuery) {
  let to = q.to ? new Date(q.to) : new Date();
  // Default range: 30 days by day, the last 48 hours by hour (a month by hour is allowed: it reads whole days
  // from the daily roll-ups, see `spans`).
  let from = q.from ? new Date(q.from) : new Date(to.getTime() - (q.bucket === "hour" ? 2 : 30) * DAY);
  if (q.bucket === "day") {
    to = new Date(Math.ceil(to.getTime() / DAY) * DAY);
    from = new Date(Math.floor(from.getTime() / DAY) * DAY);
  }
  return read(async (u) => {
    const accs = await groupAccs(u, goalId, q.group_by, from, to, q.bucket);
    const all = await labelled(u, goalId, q.group_by, accs);
    // The series from the goal-level hours (one row per hour and billing type), folded into days here.
    const series = await u.sql.all<SumRow & { hour: SqlDate }>(
      `SELECT hour, '' AS key, ${SERIES} FROM "UsageGoalHour" WHERE "goalId" = ? AND hour >= ? AND hour < ?`,
      goalId,
      from,
      to,
    );
    const points = new Map<number, Acc>();
    for (const r of series) {
      const h = toDate(r.hour).getTime();
      const t = q.bucket === "day" ? Math.floor(h / DAY) * DAY : h;
      const a = points.get(t) ?? empty();
      points.set(t, a);
      add(a, r);
    }
    const totals = all.reduce(
      (s, g) => {
        s.cents += g.cents;
        s.tokens += g.tokens;
        s.api_cents += g.api_cents;
        s.subscription_cents += g.subscription_cents;
        s.reports += g.reports;
        return s;
      },
      { cents: 0, tokens: 0, api_cents: 0, subscription_cents: 0, reports: 0 },
    );
    const top = topN(all, q.limit);
    return {
      goal_id: goalId,
      group_by: q.group_by,
      bucket: q.bucket,
      from: from.toISOString(),
      to: to.toISOString(),
      total: totals,
      groups: top.groups,
      other: top.other,
      group_count: all.length,
      ...(q.group_by === "billing_code" ? { billing_tree: billingTree(accs, done) } : {}),
      ...(q.group_by === "task" ? { task_tree: await taskTree(u, goalId, accs) } : {}),
      series: [...points]
        .sort(([a], [b]) => a - b)
        .map(([t, a]) => ({ t: new Date(t).toISOString(), ...done(a) })),
    };
  });
}

/** The contract's `cost_breakdown` of `GET /api/goals/:id`: every breakdown, top 50 each, over all time (daily roll-ups). */
export async function costBreakdown(goal: { id: number; spentCents: number; spentTokens: number }) {
  return read(async (u) => {
    const since = new Date(0);
    // A four-digit year: SQLite compares the stored ISO text, and "+275760-…" would sort before "2026-…".
    const until = new Date("9999-12-31T00:00:00Z");
    const byAgent = await groups(u, goal.id, "agent", since, until, "day");
    const byTask = await groups(u, goal.id, "task", since, until, "day");
    const byCode = await groups(u, goal.id, "billing_code", since, until, "day");
    const byModel = await groups(u, goal.id, "model", since, until, "day");
    const api = byAgent.reduce((s, g) => s + g.api_cents, 0);
    const list = (rows: CostGroup[]) => topN(rows, 50);
    return {
      total_cents: goal.spentCents,
      total_tokens: goal.spentTokens,
      api_cents: api,
      subscription_cents: Math.max(0, goal.spentCents - api),
      by_agent: list(byAgent).groups.map((g) => ({
        agent_id: Number(g.key),
        name: g.label,
        cents: g.cents,
        tokens: g.tokens,
      })),
      by_task: list(byTask).groups.map((g) => ({
        task_id: g.key === "0" ? null : Number(g.key),
        title: g.label,
        cents: g.cents,
        tokens: g.tokens,
      })),
      by_billing_code: list(byCode).groups.map((g) => ({
        billing_code: g.key,
        cents: g.cents,
        tokens: g.tokens,
      })),
      by_model: list(byModel).groups.map((g) => ({ model: g.key, cents: g.cents, tokens: g.tokens })),
    };
  });
}
