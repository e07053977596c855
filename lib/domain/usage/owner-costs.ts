import { z } from "zod";
import { read } from "@/lib/db";
import { billingTree } from "./billing-tree";
import { byKey, type CostGroup, done, SUMS, type SumRow, topN } from "./cost-report";

export const OWNER_GROUP_BY = ["goal", "agent", "billing_code", "model"] as const;
export type OwnerGroupBy = (typeof OWNER_GROUP_BY)[number];

/** `/costs` and `GET /api/costs` (and its CSV): every goal of the owner, a date range. */
export const ownerCostsQuery = z.strictObject({
  group_by: z.enum(OWNER_GROUP_BY).default("goal"),
  from: z.iso.date().optional().describe("first day, YYYY-MM-DD (UTC); default 30 days before `to`"),
  to: z.iso.date().optional().describe("last day included, YYYY-MM-DD (UTC); default today"),
  limit: z.coerce.number().int().min(1).max(10_000).default(20),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type OwnerCostsQuery = z.output<typeof ownerCostsQuery>;

const KEY: Record<OwnerGroupBy, string> = {
  goal: `b."goalId"`,
  agent: `b."agentId"`,
  billing_code: `b."billingCode"`,
  model: "b.model",
};

const DAY = 86_400_000;

/**
 * Spend across all the owner's goals in a date range, grouped, from the daily roll-ups (one GROUP BY):
 * the page of `limit` groups (largest first) and the rest summed as `other`.
 */
export async function ownerCosts(ownerId: number, q: OwnerCostsQuery) {
  const toDay = q.to ? new Date(`${q.to}T00:00:00Z`) : new Date(Math.floor(Date.now() / DAY) * DAY);
  const to = new Date(toDay.getTime() + DAY);
  const from = q.from ? new Date(`${q.from}T00:00:00Z`) : new Date(to.getTime() - 30 * DAY);
  return read(async (u) => {
    const rows = await u.sql.all<SumRow>(
      `SELECT ${KEY[q.group_by]} AS key, ${SUMS.replace(/"billingType"/, `b."billingType"`)}
       FROM "UsageDay" b JOIN "Goal" g ON g.id = b."goalId"
       WHERE g."ownerId" = ? AND b.day >= ? AND b.day < ?
       GROUP BY ${KEY[q.group_by]}, b."billingType"`,
      ownerId,
      from,
      to,
    );
    const acc = byKey(rows);
    const labels = new Map<string, string>();
    const ids = [...acc.keys()].map(Number).filter((n) => Number.isInteger(n) && n > 0);
    if (q.group_by === "goal" && ids.length) {
      for (const g of await u.db.goal.findMany({
        where: { id: { in: ids }, ownerId },
        select: { id: true, title: true },
      }))
        labels.set(String(g.id), g.title);
    } else if (q.group_by === "agent" && ids.length) {
      const agents = await u.db.agent.findMany({
        where: { id: { in: ids } },
        select: { id: true, name: true, goalId: true },
      });
      for (const a of agents) labels.set(String(a.id), `${a.name} (goal ${a.goalId})`);
    } else if (q.group_by === "billing_code") labels.set("", "(none)");
    const all: CostGroup[] = [...acc]
      .map(([key, a]) => ({ key, label: labels.get(key) ?? key, ...done(a) }))
      .sort((x, y) => y.cents - x.cents || y.tokens - x.tokens || x.key.localeCompare(y.key));
    const start = (q.page - 1) * q.limit;
    const pageRows = all.slice(start, start + q.limit);
    const rest = topN(all.slice(start), q.limit).other;
    const total = all.reduce(
      (s, g) => ({
        cents: s.cents + g.cents,
        tokens: s.tokens + g.tokens,
        api_cents: s.api_cents + g.api_cents,
        subscription_cents: s.subscription_cents + g.subscription_cents,
      }),
      { cents: 0, tokens: 0, api_cents: 0, subscription_cents: 0 },
    );
    return {
      group_by: q.group_by,
      from: from.toISOString().slice(0, 10),
      to: toDay.toISOString().slice(0, 10),
      total,
      groups: pageRows,
      other: rest,
      group_count: all.length,
      page: q.page,
      pages: Math.max(1, Math.ceil(all.length / q.limit)),
      // By billing code: every code of the hierarchy with its subtree's spend (not paged).
      ...(q.group_by === "billing_code" ? { billing_tree: billingTree(acc, done) } : {}),
    };
  });
}

const CSV_COLUMNS = [
  "key",
  "label",
  "cents",
  "api_cents",
  "subscription_cents",
  "tokens",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "reports",
] as const;

const cell = (v: string | number) => {
  const s = String(v);
  // Quote per RFC 4180; a leading = + - @ is prefixed so a spreadsheet does not run it as a formula.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** By billing code, the CSV is the hierarchy: every code and prefix, its subtree's amounts, and its own spend. */
const TREE_COLUMNS = [
  "code",
  "parent",
  "depth",
  "cents",
  "own_cents",
  "api_cents",
  "subscription_cents",
  "tokens",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "reports",
] as const;

/**
 * Every group (no top-N) as CSV, one row per group. By billing code, one row per node of the hierarchy
 * (depth first): `cents`… are the code's whole subtree, `own_cents` what was reported under the code
 * itself; the depth-0 rows (or every row's `own_cents`) sum to the total.
 */
export async function ownerCostsCsv(ownerId: number, q: OwnerCostsQuery): Promise<string> {
  const r = await ownerCosts(ownerId, { ...q, limit: 10_000, page: 1 });
  const lines: string[] = [];
  if (r.billing_tree) {
    lines.push(TREE_COLUMNS.join(","));
    for (const n of r.billing_tree)
      lines.push(TREE_COLUMNS.map((c) => cell(c === "parent" ? (n.parent ?? "") : n[c])).join(","));
  } else {
    lines.push(CSV_COLUMNS.join(","));
    for (const g of r.groups) lines.push(CSV_COLUMNS.map((c) => cell(g[c])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
