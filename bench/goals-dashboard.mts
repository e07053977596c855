// Goal dashboard benchmark: seeds 100 goals × 1,000 tasks for one owner (plus usage rows), then measures
// `GET /api/goals` and `GET /api/goals/:id` (a 1,000-task goal) against a real production server.
//   npm run build && npm run bench:goals -- [--goals 100] [--tasks 1000] [--requests 50] [--provider sqlite|postgres]
// Targets (issue 5): /api/goals < 200 ms, /api/goals/:id < 150 ms.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startServer } from "../tests/helpers/server";

const { values: opt } = parseArgs({
  options: {
    goals: { type: "string", default: "100" },
    tasks: { type: "string", default: "1000" },
    requests: { type: "string", default: "50" },
    provider: { type: "string", default: "sqlite" },
  },
});
const GOALS = Number(opt.goals);
const TASKS = Number(opt.tasks);
const REQUESTS = Number(opt.requests);
const TARGETS = { listMs: 200, goalMs: 150 };
const STATUSES = ["approved", "claimed", "awaiting_verification", "done", "done", "done", "failed"];

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

  const seedStart = performance.now();
  let firstGoal = 0;
  for (let g = 0; g < GOALS; g++) {
    const goal = await createGoal(ownerId, {
      title: `Bench goal ${g}`,
      description: "A goal seeded by the dashboard benchmark.",
      budget_dollars_cents: 50_000,
    });
    firstGoal ||= goal.goal_id;
    await write(async ({ sql }) => {
      const ids: number[] = [];
      const now = new Date();
      for (let i = 0; i < TASKS; i++) {
        // 10 roots, each with 9 children, the rest as grandchildren: a realistic three-level tree.
        const parent = i < 10 ? null : i < 100 ? ids[i % 10] : ids[10 + (i % 90)];
        const status = STATUSES[i % STATUSES.length] as string;
        const row = await sql.get<{ id: number }>(
          `INSERT INTO "GoalTask" ("goalId", "parentId", depth, title, description, "acceptanceCriteria", "billingCode",
             "budgetCents", "verifierJson", "verifierKind", ancestry, status, "assigneeId", "createdAt", "updatedAt")
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{"kind":"auto"}', 'auto', '[]', ?, ?, ?, ?) RETURNING id`,
          goal.goal_id,
          parent ?? null,
          i < 10 ? 0 : i < 100 ? 1 : 2,
          `Task ${i} of goal ${g}`,
          `Do part ${i} of the work; a description of ordinary length for a task in a tree.`,
          "The output is reviewed and matches the goal.",
          `code-${i % 7}`,
          100,
          status,
          status === "approved" ? null : goal.coordinator_agent_id,
          now,
          now,
        );
        ids.push(Number(row?.id));
      }
      // The counters the domain keeps in the transactions that create tasks and record verdicts.
      await sql.run(
        `UPDATE "Goal" SET "taskCount" = ?, "tasksDone" = (SELECT COUNT(*) FROM "GoalTask" WHERE "goalId" = ? AND status = 'done'),
           "tasksFailed" = (SELECT COUNT(*) FROM "GoalTask" WHERE "goalId" = ? AND status = 'failed') WHERE id = ?`,
        TASKS,
        goal.goal_id,
        goal.goal_id,
        goal.goal_id,
      );
      for (let i = 0; i < 100; i++) {
        await sql.run(
          `INSERT INTO "Usage" ("goalId", "agentId", "taskId", "billingCode", tokens, cents, "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
          goal.goal_id,
          goal.coordinator_agent_id,
          ids[i * 10],
          `code-${i % 7}`,
          1000,
          3,
          now,
        );
      }
    });
  }
  const seedS = (performance.now() - seedStart) / 1000;
  await disconnect();

  const get = async (url: string) => {
    const t = performance.now();
    const r = await fetch(`${server.url}${url}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = await r.text();
    if (!r.ok) throw new Error(`${url}: ${r.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - t, bytes: body.length, body };
  };
  const measure = async (url: string) => {
    for (let i = 0; i < 5; i++) await get(url); // warm-up
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const r = await get(url);
      ms.push(r.ms);
      bytes = r.bytes;
    }
    return { ...summary(ms), bytes };
  };
  const list = await get("/api/goals");
  const rows = JSON.parse(list.body) as { task_count: number }[];
  if (rows.length !== GOALS || rows.some((r) => r.task_count !== TASKS)) throw new Error("seed mismatch");
  const listStats = await measure("/api/goals");
  const goalStats = await measure(`/api/goals/${firstGoal}`);
  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    provider: opt.provider,
    goals: GOALS,
    tasks_per_goal: TASKS,
    seed_seconds: round(seedS),
    "GET /api/goals": { ...listStats, target_ms: TARGETS.listMs, pass: listStats.p95 < TARGETS.listMs },
    "GET /api/goals/:id": { ...goalStats, target_ms: TARGETS.goalMs, pass: goalStats.p95 < TARGETS.goalMs },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
}
