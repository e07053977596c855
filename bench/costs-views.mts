// Cost views benchmark (issue 12): one goal with the roll-ups of 1,000,000 usage reports over 30 days
// (50 agents × 4 models × 720 hours, 7 reports a bucket: hourly, daily and goal-hour rows), then `GET /api/goals/:id/costs` for every group_by
// (day buckets: the daily roll-ups; hour: the hourly ones) and `GET /api/goals/:id` (cost_breakdown) against a real production server.
//   npm run build && npx tsx bench/costs-views.mts -- [--provider sqlite|postgres] [--requests 30]
// Target (issue 12): p95 < 300 ms.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { withTokenNumbers } from "../lib/db/rows";
import { startServer } from "../tests/helpers/server";

const { values: opt } = parseArgs({
  options: {
    provider: { type: "string", default: "sqlite" },
    requests: { type: "string", default: "30" },
    agents: { type: "string", default: "50" },
  },
});
const REQUESTS = Number(opt.requests);
const AGENTS = Number(opt.agents);
const MODELS = ["claude-sonnet-4", "claude-opus-4", "claude-3-5-haiku", "gpt-4o"];
const HOURS = 30 * 24;
const PER_BUCKET = 7;
const TARGET_MS = 300;

const round = (x: number) => Math.round(x * 10) / 10;
function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
  return { n: s.length, p50: round(pct(50)), p95: round(pct(95)), max: round(s.at(-1) ?? Number.NaN) };
}

const server = await startServer({ provider: opt.provider === "postgres" ? "postgres" : "sqlite" });
try {
  const token = await server.ownerToken("bench@example.com");
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  const { write, read, disconnect } = await import("../lib/db");
  const { createGoal } = await import("../lib/domain/goals/create-goal");
  const ownerId = (await read(({ db }) => db.user.findUnique({ where: { email: "bench@example.com" } })))?.id;
  if (!ownerId) throw new Error("no owner");
  const goal = await createGoal(ownerId, {
    title: "Costs bench",
    description: "A goal seeded by the costs benchmark.",
  });
  const agents: number[] = [];
  for (let i = 0; i < AGENTS; i++)
    agents.push((await server.createAgent({ goal: goal.goal_id, name: `a-${i}` })).agent_id);

  const seedStart = performance.now();
  const start = Math.floor(Date.now() / 3_600_000) * 3_600_000 - HOURS * 3_600_000;
  let reports = 0;
  let totalMicros = 0;
  // The daily roll-ups, summed from the hourly rows as record-usage keeps them: key → [day, agent, model index, micros].
  const days = new Map<
    string,
    { day: Date; agentId: number; ai: number; mi: number; micros: number; n: number }
  >();
  for (let h = 0; h < HOURS; h++) {
    const hour = new Date(start + h * 3_600_000);
    await write(async ({ sql }) => {
      const rows: unknown[] = [];
      const values: string[] = [];
      for (const [ai, agentId] of agents.entries()) {
        for (const [mi, model] of MODELS.entries()) {
          const cents = 3 + ((ai + mi + h) % 17);
          const micros = ((ai * 7919 + h * 104_729) % 1_000_000) | 0;
          totalMicros += cents * 1_000_000 + micros;
          const day = new Date(Math.floor(hour.getTime() / 86_400_000) * 86_400_000);
          const k = `${day.getTime()}:${agentId}:${mi}`;
          const d = days.get(k) ?? { day, agentId, ai, mi, micros: 0, n: 0 };
          d.micros += cents * 1_000_000 + micros;
          d.n += 1;
          days.set(k, d);
          reports += PER_BUCKET;
          values.push("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
          rows.push(
            goal.goal_id,
            hour,
            agentId,
            1 + (ai % 20),
            `code-${ai % 5}.sub-${mi}`,
            model,
            ai % 3 ? "api" : "subscription",
          );
          rows.push(PER_BUCKET, 7000, 1400, 30_000, 0, 38_400, cents, micros);
        }
      }
      // The goal's hour per billing type, as record-usage keeps it beside the buckets.
      for (const type of ["api", "subscription"]) {
        let n = 0;
        let micros = 0;
        for (let i = 0; i < rows.length; i += 15) {
          if (rows[i + 6] !== type) continue;
          n += 1;
          micros += (rows[i + 13] as number) * 1_000_000 + (rows[i + 14] as number);
        }
        if (n === 0) continue;
        await sql.run(
          `INSERT INTO "UsageGoalHour" ("goalId", hour, "billingType", reports, "inputTokens", "outputTokens",
             "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          goal.goal_id,
          hour,
          type,
          PER_BUCKET * n,
          7000 * n,
          1400 * n,
          30_000 * n,
          0,
          38_400 * n,
          Math.floor(micros / 1_000_000),
          micros % 1_000_000,
        );
      }
      await sql.run(
        `INSERT INTO "UsageBucket" ("goalId", hour, "agentId", "taskId", "billingCode", model, "billingType", reports,
           "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros) VALUES ${values.join(", ")}`,
        ...rows,
      );
    });
  }
  const dayRows = [...days.values()];
  for (let i = 0; i < dayRows.length; i += 200) {
    const chunk = dayRows.slice(i, i + 200);
    await write(({ sql }) =>
      sql.run(
        `INSERT INTO "UsageDay" ("goalId", day, "agentId", "taskId", "billingCode", model, "billingType", reports,
           "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros)
         VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
        ...chunk.flatMap((d) => [
          goal.goal_id,
          d.day,
          d.agentId,
          1 + (d.ai % 20),
          `code-${d.ai % 5}.sub-${d.mi}`,
          MODELS[d.mi],
          d.ai % 3 ? "api" : "subscription",
          PER_BUCKET * d.n,
          7000 * d.n,
          1400 * d.n,
          30_000 * d.n,
          0,
          38_400 * d.n,
          Math.floor(d.micros / 1_000_000),
          d.micros % 1_000_000,
        ]),
      ),
    );
  }
  await write(({ sql }) =>
    sql.run(
      `UPDATE "Goal" SET "spentCents" = ?, "spentMicros" = ? WHERE id = ?`,
      Math.floor(totalMicros / 1_000_000),
      totalMicros % 1_000_000,
      goal.goal_id,
    ),
  );
  const seedS = (performance.now() - seedStart) / 1000;
  // The domain functions alone, in this process (no HTTP, no Next): where the time of a view goes.
  const { goalCosts, costBreakdown } = await import("../lib/domain/usage/cost-report");
  const inProcess: Record<string, unknown> = {};
  const time = async (name: string, fn: () => Promise<unknown>) => {
    await fn();
    const ms: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
    }
    inProcess[name] = summary(ms);
  };
  await time("goalCosts agent/day", () =>
    goalCosts(goal.goal_id, { group_by: "agent", bucket: "day", limit: 20 }),
  );
  await time("goalCosts model/hour", () =>
    goalCosts(goal.goal_id, { group_by: "model", bucket: "hour", limit: 20 }),
  );
  await time("goalCosts model/hour 30 days", () =>
    goalCosts(goal.goal_id, {
      group_by: "model",
      bucket: "hour",
      limit: 20,
      from: new Date(start).toISOString(),
    }),
  );
  // For comparison under the same load: the former shape of a month by hour, both queries over the hourly rows.
  const { SUMS } = await import("../lib/domain/usage/cost-report");
  await time("former month by hour (hourly rows only)", () =>
    read(async ({ sql }) => {
      const from = new Date(start);
      const to = new Date();
      await sql.all(
        `SELECT model AS key, ${SUMS} FROM "UsageBucket" WHERE "goalId" = ? AND hour >= ? AND hour < ? GROUP BY model, "billingType"`,
        goal.goal_id,
        from,
        to,
      );
      await sql.all(
        `SELECT hour, '' AS key, ${SUMS} FROM "UsageBucket" WHERE "goalId" = ? AND hour >= ? AND hour < ?
         GROUP BY hour, "billingType" ORDER BY hour`,
        goal.goal_id,
        from,
        to,
      );
    }),
  );
  const g = withTokenNumbers(
    await read(({ db }) => db.goal.findUniqueOrThrow({ where: { id: goal.goal_id } })),
  );
  await time("costBreakdown", () => costBreakdown(g));
  await disconnect();

  const get = async (url: string) => {
    const t = performance.now();
    const r = await fetch(`${server.url}${url}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = await r.text();
    if (!r.ok) throw new Error(`${url}: ${r.status} ${body.slice(0, 200)}`);
    return performance.now() - t;
  };
  const measure = async (url: string) => {
    for (let i = 0; i < 3; i++) await get(url);
    const ms: number[] = [];
    for (let i = 0; i < REQUESTS; i++) ms.push(await get(url));
    const s = summary(ms);
    return { ...s, pass: s.p95 < TARGET_MS };
  };
  const base = `/api/goals/${goal.goal_id}`;
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, Node ${process.version}`,
    provider: opt.provider,
    reports,
    buckets: HOURS * AGENTS * MODELS.length,
    day_buckets: dayRows.length,
    seed_seconds: round(seedS),
    in_process_ms: inProcess,
  };
  for (const by of ["agent", "task", "billing_code", "model"]) {
    result[`costs?group_by=${by}&bucket=day`] = await measure(`${base}/costs?group_by=${by}&bucket=day`);
  }
  // bucket=hour: its default range (the last 48 hours), then explicitly over all 30 days.
  result["costs?group_by=model&bucket=hour (48 h)"] = await measure(
    `${base}/costs?group_by=model&bucket=hour`,
  );
  const from30 = new Date(start).toISOString();
  result["costs?group_by=model&bucket=hour (30 days)"] = await measure(
    `${base}/costs?group_by=model&bucket=hour&from=${encodeURIComponent(from30)}`,
  );
  // Exactness: a month by hour (whole days from the daily roll-ups, edge hours from the hourly ones) gives
  // the groups of the same month by day (every seeded hour lies inside both ranges).
  const body = async (url: string) =>
    (await (
      await fetch(`${server.url}${url}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      groups: unknown[];
      series: { cents: number }[];
    };
  const byHour = await body(`${base}/costs?group_by=model&bucket=hour&from=${encodeURIComponent(from30)}`);
  const byDay = await body(`${base}/costs?group_by=model&bucket=day&from=${encodeURIComponent(from30)}`);
  const sum = (s: { cents: number }[]) => s.reduce((x, p) => x + p.cents, 0);
  if (JSON.stringify(byHour.groups) !== JSON.stringify(byDay.groups) || byHour.series.length !== HOURS)
    throw new Error("the month by hour does not match the month by day");
  result.exact = {
    groups_equal: true,
    hour_points: byHour.series.length,
    series_cents: [sum(byHour.series), sum(byDay.series)],
  };
  result["GET /api/goals/:id (cost_breakdown)"] = await measure(base);
  // The owner's /costs view across goals (daily roll-ups), flat and as the billing-code hierarchy.
  result["GET /api/costs?group_by=goal"] = await measure("/api/costs?group_by=goal");
  result["GET /api/costs?group_by=billing_code (hierarchy)"] = await measure(
    "/api/costs?group_by=billing_code",
  );
  result["costs?group_by=task&bucket=hour (30 days, task_tree)"] = await measure(
    `${base}/costs?group_by=task&bucket=hour&from=${encodeURIComponent(from30)}`,
  );
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
}
