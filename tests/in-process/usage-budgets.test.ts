// Usage and budgets (issue 12) through real MCP clients and the REST routes, on the provider under test:
// record-usage and its roll-ups, report_usage and its refusals, the 80 % alert and 100 % pause (also under
// 50 concurrent reporters), the budget gate on every gated tool, task budgets, resume_goal / pause / resume
// over MCP and REST, the owner's answer to the pause notice, and the cost views.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { withTokenNumbers } from "@/lib/db/rows";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { rest } from "../helpers/questions";

let server: InProcess;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startInProcess();
  db = await import("@/lib/db");
});
after(async () => {
  await server?.stop();
});

type Json = Record<string, unknown>;
const call = (c: Client, name: string, args: Json = {}) => c.callTool({ name, arguments: args });
let keySeq = 0;
const key = () => `k-${++keySeq}`;

async function budgetGoal(
  n: number,
  budget: { cents?: number | null; tokens?: number | null },
  email?: string,
) {
  const g = await goalWithAgents(server, n, email);
  await db.write((u) =>
    u.db.goal.update({
      where: { id: g.goal.goal_id },
      data: { budgetCents: budget.cents ?? null, budgetTokens: budget.tokens ?? null, status: "active" },
    }),
  );
  return g;
}

const node = (title: string, extra: Json = {}) => ({
  title,
  description: `Description of ${title}, long enough.`,
  ...extra,
});

/** A goal whose coordinator's task tree was approved; task ids by title. */
async function withTree(n: number, budget: { cents?: number | null; tokens?: number | null }, tree: Json) {
  const g = await budgetGoal(n, budget);
  const c = g.agents[0];
  assert.ok(c);
  const p = await call(c.client, "propose_task_tree", { goal_id: g.goal.goal_id, tree });
  assert.equal(errorCode(p), undefined, JSON.stringify(p));
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const a = await rest(server, "POST", `/api/approvals/${id}/approve`, g.token, {});
  assert.equal(a.status, 200, JSON.stringify(a.json));
  const tasks = await db.read((u) => u.db.goalTask.findMany({ where: { goalId: g.goal.goal_id } }));
  return { ...g, ids: Object.fromEntries(tasks.map((t) => [t.title, t.id])) as Record<string, number> };
}

/** The goal's row, its token counter and budget (64-bit columns, bigint from Prisma) as numbers. */
const goalRow = async (id: number) =>
  withTokenNumbers(await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id } })));
const usageCount = (goalId: number) => db.read((u) => u.db.usage.count({ where: { goalId } }));
const events = (goalId: number, name: string) =>
  db.read((u) => u.db.event.findMany({ where: { goalId, name }, orderBy: { seq: "asc" } }));

test("price table: invalid JSON names the file; dated model ids use their base entry; unknown_model names the file and records nothing", async () => {
  const { parsePriceTable, priceOf, priceTable, BUILTIN_PRICES_FILE } = await import(
    "@/lib/domain/usage/prices"
  );
  assert.throws(
    () => parsePriceTable("{not json", "/etc/prices.json"),
    /\/etc\/prices\.json is not valid JSON/,
  );
  assert.throws(
    () =>
      parsePriceTable(
        JSON.stringify({ models: { m: { input: -1, output: 1, cache_read: 0, cache_write: 0 } } }),
        "p.json",
      ),
    /p\.json is invalid: models\.m\.input/,
  );
  assert.equal(priceTable().file, BUILTIN_PRICES_FILE);
  assert.deepEqual(priceOf("claude-sonnet-4-5-20250929"), priceOf("claude-sonnet-4-5"));

  const g = await budgetGoal(1, {});
  const a = g.agents[1];
  assert.ok(a);
  const r = await call(a.client, "report_usage", {
    model: "no-such-model",
    input_tokens: 10,
    output_tokens: 1,
    idempotency_key: key(),
  });
  assert.equal(errorCode(r), "unknown_model");
  const err = sc<{ error: { details: { price_file: string } } }>(r).error;
  assert.equal(err.details.price_file, BUILTIN_PRICES_FILE);
  assert.equal(await usageCount(g.goal.goal_id), 0);
  // With cost_cents the price table is not needed.
  const ok = await call(a.client, "report_usage", {
    model: "no-such-model",
    input_tokens: 10,
    output_tokens: 1,
    cost_cents: 3,
    idempotency_key: key(),
  });
  assert.equal(errorCode(ok), undefined, JSON.stringify(ok));
  assert.equal(sc<{ cost_cents: number }>(ok).cost_cents, 3);
});

test("report_usage: list-price cost, fractional cents carried, billing type kept, a retried key counts once", async () => {
  const g = await budgetGoal(1, {});
  const a = g.agents[1];
  assert.ok(a);
  // claude-3-5-haiku: $0.80 / M input → 1,000 tokens = 0.08 cent = 80,000 micro-cents; 25 reports = 2 cents exactly.
  for (let i = 0; i < 25; i++) {
    const r = await call(a.client, "report_usage", {
      model: "claude-3-5-haiku",
      input_tokens: 1000,
      output_tokens: 0,
      billing_type: i % 2 ? "subscription" : "api",
      idempotency_key: `turn-${i}`,
    });
    assert.equal(errorCode(r), undefined, JSON.stringify(r));
    assert.deepEqual(
      { cents: sc<Json>(r).cost_cents, micros: sc<Json>(r).cost_micro_cents, dup: sc<Json>(r).duplicate },
      { cents: 0, micros: 80_000, dup: false },
    );
  }
  const again = await call(a.client, "report_usage", {
    model: "claude-3-5-haiku",
    input_tokens: 1000,
    output_tokens: 0,
    idempotency_key: "turn-3",
  });
  assert.equal(sc<Json>(again).duplicate, true);
  const goal = await goalRow(g.goal.goal_id);
  assert.deepEqual([goal.spentCents, goal.spentMicros, goal.spentTokens], [2, 0, 25_000]);
  assert.equal(await usageCount(g.goal.goal_id), 25);
  const sub = await db.read((u) =>
    u.db.usage.findMany({ where: { goalId: g.goal.goal_id, billingType: "subscription" } }),
  );
  assert.equal(sub.length, 12);
  assert.ok(
    sub.every((s) => s.micros === 80_000),
    "a subscription run records its list price, never $0",
  );
  // The goal-level default billing code is the goal's slug (no task held).
  assert.ok(sub.every((s) => s.billingCode === g.goal.slug && s.source === "agent"));
});

test("report_usage refuses bad input with a typed error and records nothing", async () => {
  const t = await withTree(1, {}, node("Root", { children: [node("Leaf")] }));
  const other = await withTree(1, {}, node("Elsewhere"));
  const a = t.agents[1];
  assert.ok(a);
  const base = { model: "claude-sonnet-4", input_tokens: 10, output_tokens: 10 };
  const cases: [Json, string][] = [
    [{ ...base, input_tokens: -1, idempotency_key: key() }, "invalid_input"],
    [{ ...base, output_tokens: 1e12, idempotency_key: key() }, "invalid_input"],
    [{ ...base, cost_cents: -5, idempotency_key: key() }, "invalid_input"],
    [{ ...base, idempotency_key: "" }, "invalid_input"],
    [{ ...base, task_id: 999_999, idempotency_key: key() }, "not_found"],
    [{ ...base, task_id: other.ids.Elsewhere, idempotency_key: key() }, "not_found"],
  ];
  for (const [args, code] of cases) {
    assert.equal(errorCode(await call(a.client, "report_usage", args)), code, JSON.stringify(args));
  }
  await db.write((u) => u.db.goal.update({ where: { id: t.goal.goal_id }, data: { status: "completed" } }));
  // A finished goal's agents are refused at authentication (issue 16): their keys no longer act.
  await assert.rejects(call(a.client, "report_usage", { ...base, idempotency_key: key() }), {
    code: "agent_retired",
  });
  assert.equal(await usageCount(t.goal.goal_id), 0);
  const goal = await goalRow(t.goal.goal_id);
  assert.deepEqual([goal.spentCents, goal.spentMicros, goal.spentTokens], [0, 0, 0]);
});

test("spend rolls up to the held task, every ancestor, and an hourly bucket keyed by the task's billing code", async () => {
  const t = await withTree(
    1,
    {},
    node("Root", {
      billing_code: "eng",
      children: [
        node("Mid", { billing_code: "eng.api", children: [node("Leaf", { billing_code: "eng.api.csv" })] }),
      ],
    }),
  );
  const a = t.agents[1];
  assert.ok(a);
  assert.equal(errorCode(await call(a.client, "claim_task", { task_id: t.ids.Leaf })), undefined);
  const r = await call(a.client, "report_usage", {
    model: "x",
    input_tokens: 100,
    output_tokens: 50,
    cost_cents: 7,
    idempotency_key: key(),
  });
  assert.deepEqual([sc<Json>(r).task_id, sc<Json>(r).billing_code], [t.ids.Leaf, "eng.api.csv"]);
  const tasks = await db.read((u) => u.db.goalTask.findMany({ where: { goalId: t.goal.goal_id } }));
  for (const task of tasks)
    assert.deepEqual([task.title, task.spentCents, Number(task.spentTokens)], [task.title, 7, 150]);
  const buckets = await db.read((u) => u.db.usageBucket.findMany({ where: { goalId: t.goal.goal_id } }));
  assert.equal(buckets.length, 1);
  assert.deepEqual(
    [
      buckets[0]?.taskId,
      buckets[0]?.billingCode,
      buckets[0]?.cents,
      Number(buckets[0]?.tokens),
      buckets[0]?.reports,
    ],
    [t.ids.Leaf, "eng.api.csv", 7, 150, 1],
  );
  // The runner's entry point: the same operation with source runner.
  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const rr = await recordUsage({
    agentId: Number(a.id),
    model: "claude-sonnet-4",
    inputTokens: 1_000_000,
    outputTokens: 0,
    source: "runner",
    idempotencyKey: "run-1-turn-1",
  });
  assert.deepEqual([rr.cost_cents, rr.task_id], [300, t.ids.Leaf]);
  const bucketsAfter = await db.read((u) => u.db.usageBucket.findMany({ where: { goalId: t.goal.goal_id } }));
  assert.equal(bucketsAfter.length, 2, "another model is another bucket");
  // cost views: billing codes roll up their prefixes.
  const costs = await rest(
    server,
    "GET",
    `/api/goals/${t.goal.goal_id}/costs?group_by=billing_code`,
    t.token,
  );
  assert.equal(costs.status, 200, JSON.stringify(costs.json));
  const tree = costs.json.billing_tree as { code: string; cents: number }[];
  assert.deepEqual(
    tree.map((x) => [x.code, x.cents]),
    [
      ["eng", 307],
      ["eng.api", 307],
      ["eng.api.csv", 307],
    ],
  );
});

test("billing codes as a hierarchy (/ and .) and tasks as their tree: REST billing_tree and task_tree, /api/costs and its CSV roll up exactly", async () => {
  const t = await withTree(
    1,
    {},
    node("Root", {
      billing_code: "eng",
      children: [
        node("API", { billing_code: "eng/backend/api" }),
        node("Database", { billing_code: "eng/backend/db" }),
        node("Web", { billing_code: "eng/web" }),
        node("Docs", { billing_code: "docs.csv" }),
      ],
    }),
  );
  const a = t.agents[1];
  assert.ok(a);
  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const at = new Date("2026-05-10T12:00:00Z");
  // (task, cents, micro-cents): the backend codes' fractions only make a whole cent together.
  for (const [task, cents, micros] of [
    ["API", 10, 600_000],
    ["API", 0, 100_000],
    ["Database", 5, 500_000],
    ["Web", 3, 0],
    ["Root", 1, 0],
    ["Docs", 2, 0],
  ] as const) {
    await recordUsage({
      agentId: Number(a.id),
      taskId: t.ids[task],
      model: "m",
      inputTokens: 10,
      outputTokens: 0,
      costCents: cents,
      costMicros: micros,
      source: "runner",
      idempotencyKey: key(),
      at,
    });
  }
  const costs = await rest(
    server,
    "GET",
    `/api/goals/${t.goal.goal_id}/costs?group_by=billing_code&from=2026-05-10T00:00:00Z&to=2026-05-11T00:00:00Z`,
    t.token,
  );
  assert.equal(costs.status, 200, JSON.stringify(costs.json));
  const rows = (nodes: Json[]) =>
    nodes.map((n) => [n.code, n.parent, n.depth, n.cents, n.own_cents, n.tokens]);
  const want = [
    // eng: 10.6 + 0.1 + 5.5 + 3 + 1 = 20.2 ¢ (the fractions summed before flooring), 50 tokens.
    ["eng", null, 0, 20, 1, 50],
    ["eng/backend", "eng", 1, 16, 0, 30],
    ["eng/backend/api", "eng/backend", 2, 10, 10, 20],
    ["eng/backend/db", "eng/backend", 2, 5, 5, 10],
    ["eng/web", "eng", 1, 3, 3, 10],
    ["docs", null, 0, 2, 0, 10],
    ["docs.csv", "docs", 1, 2, 2, 10],
  ];
  assert.deepEqual(rows(costs.json.billing_tree as Json[]), want);
  assert.deepEqual(
    (costs.json.billing_tree as Json[]).slice(0, 3).map((n) => n.name),
    ["eng", "backend", "api"],
  );
  // The task breakdown rolled up the task tree: Root holds its own 1 ¢ and its four children's spend.
  const byTask = await rest(
    server,
    "GET",
    `/api/goals/${t.goal.goal_id}/costs?group_by=task&from=2026-05-10T00:00:00Z&to=2026-05-11T00:00:00Z`,
    t.token,
  );
  assert.deepEqual(
    (byTask.json.task_tree as Json[]).map((n) => [n.name, n.depth, n.cents, n.own_cents]),
    [
      ["Root", 0, 22, 1],
      ["API", 1, 10, 10],
      ["Database", 1, 5, 5],
      ["Web", 1, 3, 3],
      ["Docs", 1, 2, 2],
    ],
  );
  assert.equal((byTask.json.task_tree as Json[])[1]?.parent, String(t.ids.Root));
  // The owner's view across goals (a range holding only this spend) and its CSV.
  const mine = await rest(
    server,
    "GET",
    "/api/costs?group_by=billing_code&from=2026-05-10&to=2026-05-10",
    t.token,
  );
  assert.equal(mine.status, 200, JSON.stringify(mine.json));
  assert.deepEqual(rows(mine.json.billing_tree as Json[]), want);
  const csv = await server.fetch(
    "/api/costs?group_by=billing_code&from=2026-05-10&to=2026-05-10&format=csv",
    {
      headers: { authorization: `Bearer ${t.token}` },
    },
  );
  const lines = (await csv.text()).trim().split("\r\n");
  assert.equal(
    lines[0],
    "code,parent,depth,cents,own_cents,api_cents,subscription_cents,tokens,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,reports",
  );
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(",").slice(0, 5).join(",")),
    want.map(([code, parent, depth, cents, own]) => [code, parent ?? "", depth, cents, own].join(",")),
  );
});

test("80 % posts exactly one alert (channel, event, owner question); 100 % pauses in the same transaction; the goal page snapshot says so", async () => {
  const g = await budgetGoal(1, { cents: 100 });
  const a = g.agents[1];
  assert.ok(a);
  const spend = (cents: number) =>
    call(a.client, "report_usage", {
      model: "m",
      input_tokens: 1,
      output_tokens: 1,
      cost_cents: cents,
      idempotency_key: key(),
    });
  await spend(50);
  assert.equal((await events(g.goal.goal_id, "budget.alert")).length, 0);
  await spend(35); // 85 %
  await spend(5); // 90 %: no second alert
  assert.equal((await events(g.goal.goal_id, "budget.alert")).length, 1);
  assert.equal((await goalRow(g.goal.goal_id)).status, "active");
  const last = await spend(10); // 100 %
  assert.equal(sc<Json>(last).goal_status, "paused");
  const goal = await goalRow(g.goal.goal_id);
  assert.deepEqual([goal.status, goal.pausedReason, goal.spentCents], ["paused", "budget", 100]);
  assert.equal((await events(g.goal.goal_id, "goal.paused")).length, 1);
  // Reporting goes on while paused (the turn was spent); no second pause.
  assert.equal(errorCode(await spend(3)), undefined);
  assert.equal((await events(g.goal.goal_id, "goal.paused")).length, 1);
  assert.equal((await goalRow(g.goal.goal_id)).spentCents, 103);
  const posts = await db.read((u) =>
    u.db.message.findMany({
      where: { goalId: g.goal.goal_id, kind: "system", channelId: g.goal.channel_id },
    }),
  );
  assert.equal(posts.filter((p) => p.content.startsWith("Budget alert")).length, 1);
  assert.equal(posts.filter((p) => p.content.startsWith("Budget exhausted")).length, 1);
  const qs = await db.read((u) => u.db.question.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.deepEqual(qs.map((q) => q.origin).sort(), ["budget_alert", "budget_paused"]);
  // The cards are the goal's, not the reporter's: ending the agent that crossed the line keeps them.
  const { postSentinels } = await import("@/lib/domain/teams/terminate-child");
  await db.write((u) => postSentinels(u, Number(a.id), "owner_stop", null));
  const still = await db.read((u) =>
    u.db.question.findMany({ where: { goalId: g.goal.goal_id, status: "pending" } }),
  );
  assert.deepEqual(still.map((q) => q.origin).sort(), ["budget_alert", "budget_paused"]);
  const snap = await rest(server, "GET", `/api/goals/${g.goal.goal_id}`, g.token);
  const sg = snap.json.goal as Json;
  assert.equal(sg.status, "paused");
  assert.equal(sg.paused_reason, "budget");
  assert.ok(sg.budget_alerted_at);
  const cb = snap.json.cost_breakdown as Json & { by_agent: Json[]; by_model: Json[] };
  assert.equal(cb.total_cents, 103);
  assert.deepEqual(
    cb.by_agent.map((x) => [x.agent_id, x.cents]),
    [[Number(a.id), 103]],
  );
  assert.deepEqual(
    cb.by_model.map((x) => [x.model, x.cents]),
    [["m", 103]],
  );
});

test("a paused goal refuses every gated tool with ErrGoalBudgetExceeded; reading, talking and report_usage keep working", async () => {
  const t = await withTree(2, { cents: 10 }, node("Root", { children: [node("Task A"), node("Task B")] }));
  const [c, a, b] = t.agents;
  assert.ok(c && a && b);
  assert.equal(errorCode(await call(a.client, "claim_task", { task_id: t.ids["Task A"] })), undefined);
  await call(a.client, "report_usage", {
    model: "m",
    input_tokens: 1,
    output_tokens: 1,
    cost_cents: 10,
    idempotency_key: key(),
  });
  assert.equal((await goalRow(t.goal.goal_id)).status, "paused");
  const { BUDGET_GATED } = await import("@/lib/domain/usage/budget-gate");
  const gated: [Client, string, Json][] = [
    [b.client, "claim_task", { task_id: t.ids["Task B"] }],
    [a.client, "complete_task", { task_id: t.ids["Task A"], summary: "done" }],
    [b.client, "verify_task", { task_id: t.ids["Task A"], verdict: "approve" }],
    [c.client, "propose_task_tree", { goal_id: t.goal.goal_id, tree: node("Another") }],
    [
      c.client,
      "declare_plan",
      { tasks: [{ id: "t1", role: "engineer", skill: "engineer", task: "A plan task." }] },
    ],
    [c.client, "update_plan_task", { task_id: "t1", status: "done" }],
    [c.client, "spawn_agent", { task_id: "t1" }],
    [
      c.client,
      "create_team",
      {
        name: "team",
        task: "A task for the team.",
        roles: [{ role: "r", skill: "engineer", description: "d" }],
      },
    ],
  ];
  assert.deepEqual(
    [...gated.map((x) => x[1]), "propose_agent"].sort(),
    [...BUDGET_GATED].sort(),
    "every gated tool is tested (propose_agent is issue 13's)",
  );
  for (const [client, name, args] of gated) {
    const r = await call(client, name, args);
    assert.equal(errorCode(r), "ErrGoalBudgetExceeded", `${name}: ${JSON.stringify(r)}`);
  }
  const allowed: [Client, string, Json][] = [
    [a.client, "read_inbox", {}],
    [a.client, "whoami", {}],
    [a.client, "list_tasks", {}],
    [a.client, "list_peers", {}],
    [a.client, "send_message", { to: c.id, content: "budget is spent, stopping" }],
    [
      a.client,
      "report_usage",
      { model: "m", input_tokens: 1, output_tokens: 1, cost_cents: 1, idempotency_key: key() },
    ],
  ];
  for (const [client, name, args] of allowed) {
    assert.notEqual(errorCode(await call(client, name, args)), "ErrGoalBudgetExceeded", name);
    assert.equal(
      errorCode(
        await call(client, name, name === "report_usage" ? { ...args, idempotency_key: key() } : args),
      ),
      undefined,
      name,
    );
  }
});

test("a task over its own budget blocks claim_task and complete_task for that task only", async () => {
  const t = await withTree(
    2,
    {},
    node("Root", { children: [node("Cheap", { budget_dollars_cents: 5 }), node("Other")] }),
  );
  const [, a, b] = t.agents;
  assert.ok(a && b);
  assert.equal(errorCode(await call(a.client, "claim_task", { task_id: t.ids.Cheap })), undefined);
  await call(a.client, "report_usage", {
    model: "m",
    input_tokens: 1,
    output_tokens: 1,
    cost_cents: 5,
    idempotency_key: key(),
  });
  const r = await call(a.client, "complete_task", { task_id: t.ids.Cheap, summary: "done" });
  assert.equal(errorCode(r), "ErrTaskBudgetExceeded");
  assert.equal(
    (await db.read((u) => u.db.goalTask.findUniqueOrThrow({ where: { id: t.ids.Cheap } }))).status,
    "claimed",
  );
  assert.equal(
    errorCode(await call(b.client, "claim_task", { task_id: t.ids.Other })),
    undefined,
    "the goal goes on",
  );
  assert.equal((await goalRow(t.goal.goal_id)).status, "active");
});

test("resume_goal over MCP: refuses an exhausted budget, a running goal, another owner's goal; resumes with a raised budget and re-arms the alert", async () => {
  const g = await budgetGoal(1, { cents: 100, tokens: 1_000_000 });
  const a = g.agents[1];
  assert.ok(a);
  const owner = await server.client(g.token);
  assert.equal(errorCode(await call(owner, "resume_goal", { goal_id: g.goal.goal_id })), "goal_not_paused");
  await call(a.client, "report_usage", {
    model: "m",
    input_tokens: 1,
    output_tokens: 1,
    cost_cents: 120,
    idempotency_key: key(),
  });
  assert.equal((await goalRow(g.goal.goal_id)).status, "paused");
  const same = await call(owner, "resume_goal", { goal_id: g.goal.goal_id });
  assert.equal(errorCode(same), "budget_still_exhausted");
  assert.equal(
    errorCode(await call(owner, "resume_goal", { goal_id: g.goal.goal_id, new_budget_dollars_cents: 120 })),
    "budget_still_exhausted",
  );
  assert.equal(
    errorCode(await call(owner, "resume_goal", { goal_id: g.goal.goal_id, new_budget_dollars_cents: -1 })),
    "invalid_input",
  );
  const stranger = await server.client(await server.ownerToken("stranger@example.com"));
  assert.equal(
    errorCode(
      await call(stranger, "resume_goal", { goal_id: g.goal.goal_id, new_budget_dollars_cents: 1000 }),
    ),
    "not_found",
  );
  assert.equal((await goalRow(g.goal.goal_id)).status, "paused");
  const ok = await call(owner, "resume_goal", { goal_id: g.goal.goal_id, new_budget_dollars_cents: 1000 });
  assert.deepEqual(sc(ok), { goal_id: g.goal.goal_id, status: "active" });
  const goal = await goalRow(g.goal.goal_id);
  assert.deepEqual([goal.status, goal.budgetCents, goal.budgetAlertedAt], ["active", 1000, null]);
  assert.equal((await events(g.goal.goal_id, "goal.resumed")).length, 1);
  // Work is allowed again, and the alert fires again at 80 % of the new budget.
  assert.notEqual(
    errorCode(await call(a.client, "claim_task", { task_id: 999_999 })),
    "ErrGoalBudgetExceeded",
  );
  await call(a.client, "report_usage", {
    model: "m",
    input_tokens: 1,
    output_tokens: 1,
    cost_cents: 700,
    idempotency_key: key(),
  });
  assert.equal((await events(g.goal.goal_id, "budget.alert")).length, 2);
  await db.write((u) => u.db.goal.update({ where: { id: g.goal.goal_id }, data: { status: "completed" } }));
  assert.equal(errorCode(await call(owner, "resume_goal", { goal_id: g.goal.goal_id })), "goal_finished");
});

test("REST pause and resume: a manual pause refuses work (reason manual) and resumes without a new budget; errors map to statuses", async () => {
  const g = await budgetGoal(1, {});
  const a = g.agents[1];
  assert.ok(a);
  const p = await rest(server, "POST", `/api/goals/${g.goal.goal_id}/pause`, g.token);
  assert.deepEqual([p.status, p.json.status], [200, "paused"]);
  const refused = await call(a.client, "claim_task", { task_id: 1 });
  assert.equal(errorCode(refused), "ErrGoalBudgetExceeded");
  assert.equal(sc<{ error: { details: { reason: string } } }>(refused).error.details.reason, "manual");
  const strangerToken = await server.ownerToken("stranger2@example.com");
  assert.equal(
    (await rest(server, "POST", `/api/goals/${g.goal.goal_id}/resume`, strangerToken, {})).status,
    404,
  );
  assert.equal(
    (await rest(server, "POST", `/api/goals/${g.goal.goal_id}/resume`, g.token, { new_budget_tokens: "x" }))
      .status,
    422,
  );
  const r = await rest(server, "POST", `/api/goals/${g.goal.goal_id}/resume`, g.token, {});
  assert.deepEqual([r.status, r.json.status], [200, "active"]);
  const again = await rest(server, "POST", `/api/goals/${g.goal.goal_id}/resume`, g.token, {});
  assert.deepEqual([again.status, again.json.error?.code], [409, "goal_not_paused"]);
});

test("pause_goal and resume_goal over MCP (owner token): the hand pause refuses work, is idempotent, is not_found for another owner's goal", async () => {
  const g = await budgetGoal(1, {});
  const a = g.agents[1];
  assert.ok(a);
  const p = await call(g.owner, "pause_goal", { goal_id: g.goal.goal_id });
  assert.deepEqual(sc(p), { goal_id: g.goal.goal_id, status: "paused" });
  assert.deepEqual(sc(await call(g.owner, "pause_goal", { goal_id: g.goal.goal_id })), {
    goal_id: g.goal.goal_id,
    status: "paused",
  });
  assert.equal((await events(g.goal.goal_id, "goal.paused")).length, 1, "a second pause records nothing");
  const refused = await call(a.client, "claim_task", { task_id: 1 });
  assert.equal(sc<{ error: { details: { reason: string } } }>(refused).error.details.reason, "manual");
  const stranger = await goalWithAgents(server, 0, "stranger-mcp@example.com");
  assert.equal(errorCode(await call(stranger.owner, "pause_goal", { goal_id: g.goal.goal_id })), "not_found");
  assert.equal(errorCode(await call(a.client, "pause_goal", { goal_id: g.goal.goal_id })), "unknown_tool");
  assert.deepEqual(sc(await call(g.owner, "resume_goal", { goal_id: g.goal.goal_id })), {
    goal_id: g.goal.goal_id,
    status: "active",
  });
  await db.write((u) => u.db.goal.update({ where: { id: g.goal.goal_id }, data: { status: "completed" } }));
  assert.equal(errorCode(await call(g.owner, "pause_goal", { goal_id: g.goal.goal_id })), "goal_finished");
});

test("the pause notice: the owner answers 'Raise the budget and resume' with an amount and the goal resumes", async () => {
  const g = await budgetGoal(1, { cents: 100 });
  const a = g.agents[1];
  assert.ok(a);
  await call(a.client, "report_usage", {
    model: "m",
    input_tokens: 1,
    output_tokens: 1,
    cost_cents: 100,
    idempotency_key: key(),
  });
  const q = await db.read((u) =>
    u.db.question.findFirstOrThrow({ where: { goalId: g.goal.goal_id, origin: "budget_paused" } }),
  );
  const { RAISE_AND_RESUME } = await import("@/lib/domain/questions/system-answer");
  const r = await rest(server, "POST", `/api/questions/${q.id}/answer`, g.token, {
    answers: [{ selected_labels: [RAISE_AND_RESUME], text: "$25.50" }],
  });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  const goal = await goalRow(g.goal.goal_id);
  assert.deepEqual([goal.status, goal.budgetCents], ["active", 2550]);
});

test("cost views: group_by agent / model / task, top N with other, hour and day buckets, range; bad query is 422", async () => {
  const g = await budgetGoal(3, {});
  const [, a, b, c] = g.agents;
  assert.ok(a && b && c);
  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const day1 = new Date("2026-01-01T10:15:00Z");
  const day2 = new Date("2026-01-02T11:45:00Z");
  for (const [agent, cents, at, model] of [
    [a, 30, day1, "m1"],
    [a, 20, day2, "m2"],
    [b, 40, day1, "m1"],
    [c, 5, day2, "m1"],
  ] as const) {
    await recordUsage({
      agentId: Number(agent.id),
      model,
      inputTokens: 10,
      outputTokens: 0,
      costCents: cents,
      source: "runner",
      idempotencyKey: key(),
      at,
    });
  }
  const q = (s: string) =>
    rest(
      server,
      "GET",
      `/api/goals/${g.goal.goal_id}/costs?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&${s}`,
      g.token,
    );
  const byAgent = await q("group_by=agent&limit=2");
  assert.equal(byAgent.status, 200, JSON.stringify(byAgent.json));
  assert.deepEqual(
    (byAgent.json.groups as Json[]).map((x) => [x.key, x.cents]),
    [
      [a.id, 50],
      [b.id, 40],
    ],
  );
  assert.deepEqual(
    [(byAgent.json.other as Json).cents, (byAgent.json.other as Json).count, byAgent.json.group_count],
    [5, 1, 3],
  );
  assert.deepEqual((byAgent.json.total as Json).cents, 95);
  const byDay = await q("group_by=model&bucket=day");
  assert.deepEqual(
    (byDay.json.series as Json[]).map((p) => [p.t, p.cents]),
    [
      ["2026-01-01T00:00:00.000Z", 70],
      ["2026-01-02T00:00:00.000Z", 25],
    ],
  );
  assert.deepEqual(
    (byDay.json.groups as Json[]).map((x) => [x.key, x.cents]),
    [
      ["m1", 75],
      ["m2", 20],
    ],
  );
  const byHour = await q("group_by=task&bucket=hour");
  assert.deepEqual(
    (byHour.json.series as Json[]).map((p) => p.t),
    ["2026-01-01T10:00:00.000Z", "2026-01-02T11:00:00.000Z"],
  );
  assert.deepEqual(
    (byHour.json.groups as Json[]).map((x) => [x.key, x.label]),
    [["0", "(no task)"]],
  );
  const day2Only = await q("group_by=agent").then(() =>
    rest(
      server,
      "GET",
      `/api/goals/${g.goal.goal_id}/costs?from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z`,
      g.token,
    ),
  );
  assert.equal((day2Only.json.total as Json).cents, 25);
  assert.equal((await q("group_by=planet")).status, 422);
  assert.equal((await q("from=yesterday")).status, 422);
  const stranger = await server.ownerToken("stranger3@example.com");
  assert.equal((await rest(server, "GET", `/api/goals/${g.goal.goal_id}/costs`, stranger)).status, 404);
});

test("an hourly view over days is exact: whole days from the daily roll-ups and the edge hours from the hourly ones give the raw reports' sums", async () => {
  const g = await budgetGoal(3, {});
  const agents = g.agents.slice(1);
  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const { spans } = await import("@/lib/domain/usage/cost-report");
  // 60 reports spread over four days (every 97 minutes from 2026-03-01 05:10), fractional cents, two
  // billing types, three agents and two models.
  const t0 = Date.parse("2026-03-01T05:10:00Z");
  const raw: { at: Date; agent: string; model: string; micros: number; tokens: number; type: string }[] = [];
  for (let i = 0; i < 60; i++) {
    const r = {
      at: new Date(t0 + i * 97 * 60_000),
      agent: agents[i % 3]?.id as string,
      model: i % 2 ? "m-odd" : "m-even",
      micros: 1_000_000 * (i % 7) + 333_337 * (i % 5),
      tokens: 100 + i,
      type: i % 4 ? "api" : "subscription",
    };
    raw.push(r);
    await recordUsage({
      agentId: Number(r.agent),
      model: r.model,
      inputTokens: r.tokens,
      outputTokens: 0,
      costCents: Math.floor(r.micros / 1_000_000),
      costMicros: r.micros % 1_000_000,
      source: "runner",
      billingType: r.type as "api" | "subscription",
      idempotencyKey: key(),
      at: r.at,
    });
  }
  // The goal-level hours hold every report once.
  const hours = await db.read((u) => u.db.usageGoalHour.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(
    hours.reduce((s, h) => s + h.cents * 1_000_000 + h.micros, 0),
    raw.reduce((s, r) => s + r.micros, 0),
  );
  assert.equal(
    hours.reduce((s, h) => s + h.reports, 0),
    60,
  );
  // From 07:30 on day 1 to 16:00 on day 4: two edge spans by hour, two whole days by day.
  const from = "2026-03-01T07:30:00Z";
  const to = "2026-03-04T16:00:00Z";
  assert.deepEqual(
    spans(new Date(from), new Date(to), "hour").map((s) => [
      s.table,
      s.from.toISOString(),
      s.to.toISOString(),
    ]),
    [
      ["UsageBucket", "2026-03-01T07:30:00.000Z", "2026-03-02T00:00:00.000Z"],
      ["UsageDay", "2026-03-02T00:00:00.000Z", "2026-03-04T00:00:00.000Z"],
      ["UsageBucket", "2026-03-04T00:00:00.000Z", "2026-03-04T16:00:00.000Z"],
    ],
  );
  const hourOf = (d: Date) => Math.floor(d.getTime() / 3_600_000) * 3_600_000;
  const inRange = raw.filter((r) => hourOf(r.at) >= Date.parse(from) && hourOf(r.at) < Date.parse(to));
  assert.ok(inRange.length > 0 && inRange.length < raw.length);
  for (const by of ["agent", "model"] as const) {
    const res = await rest(
      server,
      "GET",
      `/api/goals/${g.goal.goal_id}/costs?group_by=${by}&bucket=hour&from=${from}&to=${to}&limit=200`,
      g.token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const want = new Map<string, { micros: number; api: number; tokens: number; reports: number }>();
    for (const r of inRange) {
      const k = by === "agent" ? r.agent : r.model;
      const w = want.get(k) ?? { micros: 0, api: 0, tokens: 0, reports: 0 };
      w.micros += r.micros;
      if (r.type === "api") w.api += r.micros;
      w.tokens += r.tokens;
      w.reports += 1;
      want.set(k, w);
    }
    assert.deepEqual(
      Object.fromEntries(
        (res.json.groups as Json[]).map((x) => [x.key, [x.cents, x.api_cents, x.tokens, x.reports]]),
      ),
      Object.fromEntries(
        [...want].map(([k, w]) => [
          k,
          [Math.floor(w.micros / 1e6), Math.floor(w.api / 1e6), w.tokens, w.reports],
        ]),
      ),
    );
    // The series: one point per hour that had spend, each the sum of its reports.
    const points = new Map<number, number>();
    for (const r of inRange) points.set(hourOf(r.at), (points.get(hourOf(r.at)) ?? 0) + r.micros);
    assert.deepEqual(
      (res.json.series as Json[]).map((p) => [p.t, p.cents]),
      [...points].sort(([x], [y]) => x - y).map(([t, m]) => [new Date(t).toISOString(), Math.floor(m / 1e6)]),
    );
  }
});

test("50 concurrent reporters across the 80 % and 100 % lines: exactly one alert, exactly one pause, nothing lost or doubled", async () => {
  const g = await budgetGoal(50, { cents: 1000 });
  const reporters = g.agents.slice(1);
  assert.equal(reporters.length, 50);
  // 50 × 3 reports of 7 cents and 333,333 micro-cents (the fraction must carry): 1,100 cents in all, over the 1,000 budget.
  const results = await Promise.all(
    reporters.flatMap((a) =>
      [0, 1, 2].map((j) =>
        call(a.client, "report_usage", {
          model: "claude-3-5-haiku",
          input_tokens: 91_666, // 91,666 × 0.8 × 100 = 7,333,280 micro-cents
          output_tokens: 0,
          idempotency_key: `burst-${j}`,
        }),
      ),
    ),
  );
  for (const r of results) assert.equal(errorCode(r), undefined, JSON.stringify(r));
  const each = 7_333_280;
  const goal = await goalRow(g.goal.goal_id);
  assert.equal(goal.spentCents * 1_000_000 + goal.spentMicros, 150 * each);
  assert.equal(goal.spentTokens, 150 * 91_666);
  const rows = await db.read((u) => u.db.usage.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(rows.length, 150);
  const bucketSum = await db.read((u) => u.db.usageBucket.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(
    bucketSum.reduce((s, b) => s + b.cents * 1_000_000 + b.micros, 0),
    150 * each,
  );
  const daySum = await db.read((u) => u.db.usageDay.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(
    daySum.reduce((s, b) => s + b.cents * 1_000_000 + b.micros, 0),
    150 * each,
  );
  const goalHours = await db.read((u) => u.db.usageGoalHour.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(
    goalHours.reduce((s, b) => s + b.cents * 1_000_000 + b.micros, 0),
    150 * each,
  );
  assert.equal(
    goalHours.reduce((s, b) => s + b.reports, 0),
    150,
  );
  assert.equal((await events(g.goal.goal_id, "budget.alert")).length, 1);
  assert.equal((await events(g.goal.goal_id, "goal.paused")).length, 1);
  assert.equal(goal.status, "paused");
  const qs = await db.read((u) => u.db.question.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.deepEqual(qs.map((q) => q.origin).sort(), ["budget_alert", "budget_paused"]);
  // Retrying the whole burst counts nothing again.
  await Promise.all(
    reporters.map((a) =>
      call(a.client, "report_usage", {
        model: "claude-3-5-haiku",
        input_tokens: 91_666,
        output_tokens: 0,
        idempotency_key: "burst-0",
      }),
    ),
  );
  assert.equal((await goalRow(g.goal.goal_id)).spentTokens, 150 * 91_666);
});

test("GET /api/costs across the owner's goals: by goal / model, a date range, pages, CSV export; other owners' spend never shows", async () => {
  const email = "costs-owner@example.com";
  const g1 = await goalWithAgents(server, 1, email);
  const g2 = await goalWithAgents(server, 1, email);
  const foreign = await goalWithAgents(server, 1, "someone-else@example.com");
  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const at = new Date("2026-02-10T09:00:00Z");
  const spend = (
    agentId: string | undefined,
    cents: number,
    model: string,
    billingType: "api" | "subscription" = "api",
  ) =>
    recordUsage({
      agentId: Number(agentId),
      model,
      inputTokens: 5,
      outputTokens: 5,
      costCents: cents,
      source: "runner",
      billingType,
      idempotencyKey: key(),
      at,
    });
  await spend(g1.agents[1]?.id, 40, "m1");
  await spend(g1.agents[0]?.id, 10, "m2", "subscription");
  await spend(g2.agents[1]?.id, 25, "m1");
  await spend(foreign.agents[1]?.id, 999, "m1");
  const token = await server.ownerToken(email);
  const q = (s: string) => rest(server, "GET", `/api/costs?from=2026-02-01&to=2026-02-28&${s}`, token);
  const byGoal = await q("group_by=goal");
  assert.equal(byGoal.status, 200, JSON.stringify(byGoal.json));
  assert.deepEqual(
    (byGoal.json.groups as Json[]).map((x) => [Number(x.key), x.cents]),
    [
      [g1.goal.goal_id, 50],
      [g2.goal.goal_id, 25],
    ],
  );
  assert.deepEqual(byGoal.json.total, { cents: 75, tokens: 30, api_cents: 65, subscription_cents: 10 });
  const paged = await q("group_by=goal&limit=1&page=2");
  assert.deepEqual([(paged.json.groups as Json[]).map((x) => x.cents), paged.json.pages], [[25], 2]);
  const firstPage = await q("group_by=goal&limit=1");
  assert.equal((firstPage.json.other as Json).cents, 25);
  const byModel = await q("group_by=model");
  assert.deepEqual(
    (byModel.json.groups as Json[]).map((x) => [x.key, x.cents]),
    [
      ["m1", 65],
      ["m2", 10],
    ],
  );
  const empty = await rest(server, "GET", "/api/costs?from=2026-03-01&to=2026-03-02", token);
  assert.equal((empty.json.total as Json).cents, 0);
  assert.equal((await q("group_by=planet")).status, 422);
  const csv = await server.fetch("/api/costs?from=2026-02-01&to=2026-02-28&group_by=model&format=csv", {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
  const lines = (await csv.text()).trim().split("\r\n");
  assert.equal(
    lines[0],
    "key,label,cents,api_cents,subscription_cents,tokens,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,reports",
  );
  assert.deepEqual(lines.slice(1), ["m1,m1,65,65,0,20,10,10,0,0,2", "m2,m2,10,0,10,10,5,5,0,0,1"]);
});
