// Token counters past 2^31 (issue 12, docs/budgets.md "Limits"), on the provider under test: token counters
// and token budgets are 64-bit columns, so a goal's spend, a task's, an hour bucket's and a budget can pass
// 2,147,483,647 tokens (PostgreSQL's `integer` refused it: "integer out of range"), and every REST and MCP
// output still carries them as exact JSON numbers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { withTokenNumbers } from "@/lib/db/rows";
import { MAX_TOKEN_BUDGET } from "@/lib/ids";
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
const M100 = 100_000_000; // the most one report may carry of one token kind
const INT32_MAX = 2_147_483_647;
let keySeq = 0;
const key = () => `big-${++keySeq}`;

const goalRow = async (id: number) =>
  withTokenNumbers(await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id } })));

/** A full report: 100 M tokens of each kind (400 M), a fixed cost so the price table does not matter. */
const fullReport = (extra: Json = {}) => ({
  model: "claude-3-5-haiku",
  input_tokens: M100,
  output_tokens: M100,
  cache_read_tokens: M100,
  cache_write_tokens: M100,
  cost_cents: 1,
  idempotency_key: key(),
  ...extra,
});

test("usage past 2^31 tokens in one goal, one agent, one task, one hour: counters, roll-ups and cost views exact, as JSON numbers", async () => {
  const g = await goalWithAgents(server, 1);
  const goalId = g.goal.goal_id;
  const coordinator = g.agents[0];
  const a = g.agents[1];
  assert.ok(coordinator && a);
  const p = await call(coordinator.client, "propose_task_tree", {
    goal_id: goalId,
    tree: {
      title: "Root",
      description: "The root task of a big spender.",
      children: [{ title: "Leaf", description: "The leaf that spends the tokens." }],
    },
  });
  assert.equal(errorCode(p), undefined, JSON.stringify(p));
  const approved = await rest(
    server,
    "POST",
    `/api/approvals/${sc<{ proposal_message_id: number }>(p).proposal_message_id}/approve`,
    g.token,
    {},
  );
  assert.equal(approved.status, 200, JSON.stringify(approved.json));
  const tasks = await db.read((u) => u.db.goalTask.findMany({ where: { goalId } }));
  const leaf = tasks.find((t) => t.title === "Leaf");
  const root = tasks.find((t) => t.title === "Root");
  assert.ok(leaf && root);

  // Six full reports, all in one hour: 2.4 billion tokens in the goal, the task, its parent, and the one
  // hourly / daily / goal-hour bucket of (agent, task, code, model); each kind reaches 600 M.
  const at = new Date();
  for (let i = 0; i < 6; i++) {
    const r = await call(a.client, "report_usage", fullReport({ task_id: leaf.id }));
    assert.equal(errorCode(r), undefined, JSON.stringify(r));
    assert.equal(sc<Json>(r).tokens, 4 * M100);
  }
  const total = 24 * M100;
  assert.ok(total > INT32_MAX);
  const goal = await goalRow(goalId);
  assert.deepEqual([goal.spentTokens, goal.spentCents, goal.status], [total, 6, "active"]);
  const taskRows = await db.read((u) =>
    u.db.goalTask.findMany({ where: { id: { in: [leaf.id, root.id] } }, orderBy: { id: "asc" } }),
  );
  assert.deepEqual(
    taskRows.map((t) => t.spentTokens),
    [BigInt(total), BigInt(total)],
  );
  for (const table of ["usageBucket", "usageDay", "usageGoalHour"] as const) {
    const rows = (await db.read((u) =>
      (u.db[table] as typeof u.db.usageDay).findMany({ where: { goalId } }),
    )) as { tokens: bigint; inputTokens: bigint; cacheReadTokens: bigint; reports: number }[];
    assert.equal(rows.length, 1, table);
    assert.deepEqual(
      rows.map((b) => [b.tokens, b.inputTokens, b.cacheReadTokens, b.reports]),
      [[BigInt(total), BigInt(6 * M100), BigInt(6 * M100), 6]],
      table,
    );
  }

  // The cost views: every token figure a JSON number, exact.
  const sums = {
    tokens: total,
    input_tokens: 6 * M100,
    output_tokens: 6 * M100,
    cache_read_tokens: 6 * M100,
    cache_write_tokens: 6 * M100,
  };
  const pick = (x: Json) => ({
    tokens: x.tokens,
    input_tokens: x.input_tokens,
    output_tokens: x.output_tokens,
    cache_read_tokens: x.cache_read_tokens,
    cache_write_tokens: x.cache_write_tokens,
  });
  for (const q of [
    "group_by=agent",
    "group_by=task",
    "group_by=model&bucket=hour",
    "group_by=billing_code",
  ]) {
    const c = await rest(server, "GET", `/api/goals/${goalId}/costs?${q}`, g.token);
    assert.equal(c.status, 200, JSON.stringify(c.json));
    const body = c.json as { total: Json; groups: Json[]; series: Json[] };
    assert.equal(body.total.tokens, total, q);
    assert.equal(typeof body.total.tokens, "number");
    assert.equal(body.groups.length, 1, q);
    assert.deepEqual(pick(body.groups[0] as Json), sums, q);
    assert.equal(
      body.series.reduce((s, x) => s + (x.tokens as number), 0),
      total,
      `${q}: the series sums to the total`,
    );
  }
  const snap = await rest(server, "GET", `/api/goals/${goalId}`, g.token);
  assert.equal(snap.status, 200);
  const s = snap.json as {
    goal: Json;
    cost_breakdown: Json & { by_agent: Json[]; by_task: Json[]; by_model: Json[]; by_billing_code: Json[] };
    tasks_tree: (Json & { children: Json[] })[];
  };
  assert.equal(s.goal.spent_tokens, total);
  assert.equal(s.cost_breakdown.total_tokens, total);
  for (const list of ["by_agent", "by_task", "by_model", "by_billing_code"] as const)
    assert.equal(s.cost_breakdown[list][0]?.tokens, total, list);
  assert.equal(s.tasks_tree[0]?.spent_tokens, total);
  assert.equal(s.tasks_tree[0]?.children[0]?.spent_tokens, total);
  // The dashboard list and the owner's costs across goals.
  const list = await rest(server, "GET", "/api/goals", g.token);
  const mine = (list.json as unknown as (Json & { cost_totals: Json })[]).find((x) => x.id === goalId);
  assert.equal(mine?.cost_totals.spent_tokens, total, JSON.stringify(mine));
  const day = at.toISOString().slice(0, 10);
  const owner = await rest(server, "GET", `/api/costs?group_by=goal&from=${day}&to=${day}`, g.token);
  assert.equal(owner.status, 200, JSON.stringify(owner.json));
  assert.equal((owner.json.total as Json).tokens, total);
});

test("a token budget of 5,000,000,000: created, paused exactly when spend reaches it, resumed with 6,000,000,000; bounds are 0 … 10^15", async () => {
  const token = await server.ownerToken("bigbudget@example.com");
  const owner = await server.client(token);
  const created = await call(owner, "create_goal", {
    title: "A goal with a big token budget",
    description: "Spends billions of cached tokens.",
    budget_tokens: 5_000_000_000,
  });
  assert.equal(errorCode(created), undefined, JSON.stringify(created));
  const goalId = sc<{ goal_id: number }>(created).goal_id;
  assert.equal((await goalRow(goalId)).budgetTokens, 5_000_000_000);
  const agent = await server.createAgent({ goal: goalId, name: "spender", role: "engineer" });
  const a = await server.client(agent.api_key);

  // 12 full reports: 4.8 billion, past the 80 % alert (4 billion), still below the budget.
  for (let i = 0; i < 12; i++) {
    const r = await call(a, "report_usage", fullReport());
    assert.equal(errorCode(r), undefined, JSON.stringify(r));
    assert.notEqual(sc<Json>(r).goal_status, "paused", `report ${i + 1}`);
  }
  let goal = await goalRow(goalId);
  assert.deepEqual([goal.spentTokens, goal.status], [4_800_000_000, "draft"]);
  assert.notEqual(goal.budgetAlertedAt, null);
  // 200 M more reaches 5,000,000,000 exactly: that report pauses the goal.
  const last = await call(a, "report_usage", {
    model: "claude-3-5-haiku",
    input_tokens: M100,
    output_tokens: M100,
    cost_cents: 1,
    idempotency_key: key(),
  });
  assert.equal(sc<Json>(last).goal_status, "paused", JSON.stringify(last));
  goal = await goalRow(goalId);
  assert.deepEqual([goal.spentTokens, goal.status, goal.pausedReason], [5_000_000_000, "paused", "budget"]);
  const paused = await db.read((u) =>
    u.db.event.findMany({ where: { goalId, name: { in: ["budget.alert", "goal.paused"] } } }),
  );
  assert.deepEqual(paused.map((e) => e.name).sort(), ["budget.alert", "goal.paused"]);
  const alert = JSON.parse(paused.find((e) => e.name === "budget.alert")?.dataJson ?? "{}") as Json;
  assert.deepEqual([alert.budget_tokens, alert.spent_tokens], [5_000_000_000, 4_000_000_000]);
  assert.equal(errorCode(await call(a, "claim_task", { task_id: 1 })), "ErrGoalBudgetExceeded");

  // The same budget is still exhausted; above the bound is invalid input; 6 billion resumes.
  assert.equal(
    errorCode(await call(owner, "resume_goal", { goal_id: goalId, new_budget_tokens: 5_000_000_000 })),
    "budget_still_exhausted",
  );
  assert.equal(
    errorCode(await call(owner, "resume_goal", { goal_id: goalId, new_budget_tokens: MAX_TOKEN_BUDGET + 1 })),
    "invalid_input",
  );
  const tooBig = await rest(server, "POST", `/api/goals/${goalId}/resume`, token, {
    new_budget_tokens: MAX_TOKEN_BUDGET + 1,
  });
  assert.equal(tooBig.status, 422, JSON.stringify(tooBig.json));
  const ok = await call(owner, "resume_goal", { goal_id: goalId, new_budget_tokens: 6_000_000_000 });
  assert.deepEqual(sc(ok), { goal_id: goalId, status: "active" });
  goal = await goalRow(goalId);
  // 5 of 6 billion is above 80 %: the alert stays spent (not re-armed).
  assert.deepEqual([goal.status, goal.budgetTokens], ["active", 6_000_000_000]);
  assert.notEqual(goal.budgetAlertedAt, null);
  const snap = await rest(server, "GET", `/api/goals/${goalId}`, token);
  assert.deepEqual(
    [(snap.json.goal as Json).budget_tokens, (snap.json.goal as Json).spent_tokens],
    [6_000_000_000, 5_000_000_000],
  );
  // Work goes on, and spend reaching the new budget pauses it again.
  assert.notEqual(errorCode(await call(a, "claim_task", { task_id: 1 })), "ErrGoalBudgetExceeded");
  for (let i = 0; i < 2; i++) await call(a, "report_usage", fullReport());
  goal = await goalRow(goalId);
  assert.deepEqual([goal.spentTokens, goal.status], [5_800_000_000, "active"]);
  await call(a, "report_usage", fullReport());
  goal = await goalRow(goalId);
  assert.deepEqual([goal.spentTokens, goal.status], [6_200_000_000, "paused"]);

  // Creating: the bound is MAX_TOKEN_BUDGET (10^15), over MCP and REST; at the bound it is exact.
  assert.equal(
    errorCode(
      await call(owner, "create_goal", {
        title: "Too big",
        description: "A budget above the bound.",
        budget_tokens: MAX_TOKEN_BUDGET + 1,
      }),
    ),
    "invalid_input",
  );
  const atMax = await rest(server, "POST", "/api/goals", token, {
    title: "At the bound",
    description: "A budget at the bound.",
    budget_tokens: MAX_TOKEN_BUDGET,
  });
  assert.equal(atMax.status, 201, JSON.stringify(atMax.json));
  const maxGoal = await rest(server, "GET", `/api/goals/${atMax.json.goal_id}`, token);
  assert.equal((maxGoal.json.goal as Json).budget_tokens, MAX_TOKEN_BUDGET);
});

test("a task budget above 2^31 tokens: the tree takes it, the task's spend reaching it blocks claim_task", async () => {
  const g = await goalWithAgents(server, 1);
  const goalId = g.goal.goal_id;
  const [coordinator, a] = g.agents;
  assert.ok(coordinator && a);
  const tooBig = await call(coordinator.client, "propose_task_tree", {
    goal_id: goalId,
    tree: {
      title: "Root",
      description: "A root with a budget above the bound.",
      budget_tokens: MAX_TOKEN_BUDGET + 1,
    },
  });
  assert.equal(errorCode(tooBig), "invalid_input");
  const p = await call(coordinator.client, "propose_task_tree", {
    goal_id: goalId,
    tree: { title: "Big", description: "A task with a big token budget.", budget_tokens: 3_000_000_000 },
  });
  assert.equal(errorCode(p), undefined, JSON.stringify(p));
  const approved = await rest(
    server,
    "POST",
    `/api/approvals/${sc<{ proposal_message_id: number }>(p).proposal_message_id}/approve`,
    g.token,
    {},
  );
  assert.equal(approved.status, 200, JSON.stringify(approved.json));
  const task = await db.read((u) => u.db.goalTask.findFirstOrThrow({ where: { goalId } }));
  assert.equal(task.budgetTokens, 3_000_000_000n);
  const snap = await rest(server, "GET", `/api/goals/${goalId}`, g.token);
  assert.equal((snap.json.tasks_tree as Json[])[0]?.budget_tokens, 3_000_000_000);
  // 7 full reports on the task: 2.8 billion, under its budget; the 8th reaches 3.2 billion.
  for (let i = 0; i < 7; i++) await call(a.client, "report_usage", fullReport({ task_id: task.id }));
  assert.notEqual(
    errorCode(await call(a.client, "claim_task", { task_id: task.id })),
    "ErrTaskBudgetExceeded",
  );
  await call(a.client, "report_usage", fullReport({ task_id: task.id }));
  const t = await db.read((u) => u.db.goalTask.findUniqueOrThrow({ where: { id: task.id } }));
  assert.equal(t.spentTokens, 3_200_000_000n);
  const blocked = await call(a.client, "complete_task", { task_id: task.id, summary: "done" });
  assert.equal(errorCode(blocked), "ErrTaskBudgetExceeded", JSON.stringify(blocked));
  const details = sc<{ error: { details: Json } }>(blocked).error.details;
  assert.deepEqual([details.spent_tokens, details.budget_tokens], [3_200_000_000, 3_000_000_000]);
});
