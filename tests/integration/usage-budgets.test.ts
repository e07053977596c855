// Budgets over the real production server (issue 12): a broken price table stops the server at start with
// the file named; 50 agents reporting through TWO server instances on one database cross the 80 % and
// 100 % lines: exactly one alert, exactly one pause, nothing lost or doubled; resume and costs over HTTP.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rest } from "../helpers/questions";
import { errorCode, mcpClient, sc, startServer, type TestServer } from "../helpers/server";

let a: TestServer;
let b: TestServer;
let db: typeof import("@/lib/db");
const clients: Client[] = [];

before(async () => {
  a = await startServer();
  b = await startServer({ shareDatabaseWith: a });
  process.env.DATABASE_URL = a.env.DATABASE_URL;
  db = await import("@/lib/db");
});
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await db?.disconnect();
  await b?.stop();
  await a?.stop();
});

test("a price table that is not valid JSON stops the server at start, naming the file", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-prices-")), "prices.json");
  fs.writeFileSync(file, "{ not json");
  await assert.rejects(startServer({ env: { SWITCHBOARD_PRICES_FILE: file } }), (e: Error) =>
    e.message.includes(`The price table ${file} is not valid JSON`),
  );
});

test("50 agents on two instances cross 80 % and 100 %: one alert, one pause, every report counted once; resume and costs over HTTP", async () => {
  const token = await a.ownerToken();
  const owner = await mcpClient(a.url, token);
  clients.push(owner);
  const created = await owner.callTool({
    name: "create_goal",
    arguments: {
      title: "Budgeted goal",
      description: "A goal with a small budget.",
      budget_dollars_cents: 1000,
    },
  });
  const goal = sc<{ goal_id: number }>(created);
  const agents: Client[] = [];
  for (let i = 0; i < 50; i++) {
    const { api_key } = await a.createAgent({ goal: goal.goal_id, name: `reporter-${i}` });
    const c = await mcpClient((i % 2 ? b : a).url, api_key);
    clients.push(c);
    agents.push(c);
  }
  // 50 × 3 reports of 7.33328 ¢ (the fraction must carry) = 1,099.992 ¢, over the $10 budget.
  const report = (c: Client, k: string) =>
    c.callTool({
      name: "report_usage",
      arguments: { model: "claude-3-5-haiku", input_tokens: 91_666, output_tokens: 0, idempotency_key: k },
    });
  const results = await Promise.all(agents.flatMap((c) => ["t0", "t1", "t2"].map((k) => report(c, k))));
  for (const r of results) assert.equal(errorCode(r), undefined, JSON.stringify(r));
  // Retries through the other instance count nothing.
  await Promise.all(agents.map((c) => report(c, "t1")));
  const row = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: goal.goal_id } }));
  assert.equal(row.spentCents * 1_000_000 + row.spentMicros, 150 * 7_333_280);
  assert.equal(row.status, "paused");
  const count = (name: string) => db.read((u) => u.db.event.count({ where: { goalId: goal.goal_id, name } }));
  assert.equal(await count("budget.alert"), 1);
  assert.equal(await count("goal.paused"), 1);
  // Work is refused on both instances; the owner resumes over HTTP (on the other instance) with a raised budget.
  for (const c of agents.slice(0, 2)) {
    assert.equal(
      errorCode(await c.callTool({ name: "claim_task", arguments: { task_id: 1 } })),
      "ErrGoalBudgetExceeded",
    );
  }
  const refused = await rest(b, "POST", `/api/goals/${goal.goal_id}/resume`, token, {});
  assert.deepEqual([refused.status, refused.json.error?.code], [409, "budget_still_exhausted"]);
  const resumed = await rest(b, "POST", `/api/goals/${goal.goal_id}/resume`, token, {
    new_budget_dollars_cents: 5000,
  });
  assert.deepEqual([resumed.status, resumed.json], [200, { goal_id: goal.goal_id, status: "active" }]);
  const costs = await rest(a, "GET", `/api/goals/${goal.goal_id}/costs?group_by=model&bucket=hour`, token);
  assert.equal(costs.status, 200);
  assert.equal((costs.json.total as { cents: number }).cents, Math.floor((150 * 7_333_280) / 1_000_000));
  const snap = await rest(a, "GET", `/api/goals/${goal.goal_id}`, token);
  assert.equal((snap.json.cost_breakdown as { total_cents: number }).total_cents, row.spentCents);
});
