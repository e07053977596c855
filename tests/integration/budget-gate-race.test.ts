// The budget gate under concurrency (issue 12), over two server instances on one database (SQLite and
// PostgreSQL): agents claim tasks while the goal is paused, by the owner (REST) or by the report that spends
// the budget (report_usage). Whatever the interleaving, no gated call's work lands after the pause: each
// `task_claimed` event comes before the `goal.paused` event in the goal's sequence, and every claim the
// database holds is one the caller was told succeeded. Without the check inside the tool's own unit
// (holdGoalUnpaused), claims that passed the early check as the pause committed landed after it.
import assert from "node:assert/strict";
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

const AGENTS = 24;
const ROUNDS = 4;

/** A goal with `AGENTS` agents (alternating instances), one approved task each. */
async function goalWithTasks(token: string, owner: Client, budgetCents?: number) {
  const created = await owner.callTool({
    name: "create_goal",
    arguments: {
      title: `Race ${Math.random().toString(36).slice(2, 8)}`,
      description: "A goal paused while its agents claim tasks.",
      ...(budgetCents === undefined ? {} : { budget_dollars_cents: budgetCents }),
    },
  });
  const goalId = sc<{ goal_id: number }>(created).goal_id;
  const agents: Client[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const { api_key } = await a.createAgent({ goal: goalId, name: `claimer-${i}` });
    const c = await mcpClient((i % 2 ? b : a).url, api_key);
    clients.push(c);
    agents.push(c);
  }
  await db.write((u) =>
    u.db.goalTask.createMany({
      data: agents.map((_, i) => ({
        goalId,
        title: `Task ${i}`,
        description: "A task to claim during the pause.",
        status: "approved",
      })),
    }),
  );
  const tasks = await db.read((u) =>
    u.db.goalTask.findMany({ where: { goalId }, orderBy: { id: "asc" }, select: { id: true } }),
  );
  return { goalId, agents, taskIds: tasks.map((t) => t.id), token };
}

/** Every claim either succeeded before the pause or was refused; nothing claimed after it. */
async function assertNothingAfterPause(goalId: number, results: unknown[], taskIds: number[]) {
  const codes = results.map((r) => errorCode(r));
  for (const c of codes) assert.ok(c === undefined || c === "ErrGoalBudgetExceeded", String(c));
  const events = await db.read((u) =>
    u.db.event.findMany({
      where: { goalId, name: { in: ["task_claimed", "goal.paused"] } },
      select: { name: true, seq: true },
    }),
  );
  const paused = events.filter((e) => e.name === "goal.paused");
  assert.equal(paused.length, 1, "exactly one pause");
  const pausedSeq = paused[0]?.seq ?? 0;
  const late = events.filter((e) => e.name === "task_claimed" && e.seq > pausedSeq);
  assert.deepEqual(late, [], "a claim landed after the pause");
  const claimed = await db.read((u) =>
    u.db.goalTask.findMany({
      where: { id: { in: taskIds }, status: "claimed" },
      select: { id: true },
      orderBy: { id: "asc" },
    }),
  );
  const told = taskIds.filter((_, i) => codes[i] === undefined);
  assert.deepEqual(
    claimed.map((t) => t.id),
    told,
  );
  return { ok: told.length, refused: codes.length - told.length };
}

test("claims racing the owner's pause: none lands after it (both instances)", async (t) => {
  const token = await a.ownerToken();
  const owner = await mcpClient(a.url, token);
  clients.push(owner);
  const tally = { ok: 0, refused: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const g = await goalWithTasks(token, owner);
    const claims = g.agents.map((c, i) =>
      c.callTool({ name: "claim_task", arguments: { task_id: g.taskIds[i] } }),
    );
    // The pause goes out while the claims are in flight, later each round.
    await new Promise((r) => setTimeout(r, round * 4));
    const pause = await rest(round % 2 ? b : a, "POST", `/api/goals/${g.goalId}/pause`, token);
    assert.equal(pause.status, 200, JSON.stringify(pause.json));
    const r = await assertNothingAfterPause(g.goalId, await Promise.all(claims), g.taskIds);
    tally.ok += r.ok;
    tally.refused += r.refused;
    // After the pause every claim is refused.
    const again = await g.agents[0]?.callTool({ name: "claim_task", arguments: { task_id: g.taskIds[0] } });
    assert.equal(errorCode(again), "ErrGoalBudgetExceeded");
  }
  // How the rounds overlapped the pause (claims that won, claims refused): the race was exercised when both
  // are > 0 (typically so; not asserted, it depends on the machine's timing).
  t.diagnostic(`claims won ${tally.ok}, refused ${tally.refused}`);
});

test("claims racing the report that spends the budget: none lands after the pause", async () => {
  const token = await a.ownerToken();
  const owner = await mcpClient(a.url, token);
  clients.push(owner);
  for (let round = 0; round < 2; round++) {
    const g = await goalWithTasks(token, owner, 100);
    const claims = g.agents.map((c, i) =>
      c.callTool({ name: "claim_task", arguments: { task_id: g.taskIds[i] } }),
    );
    await new Promise((r) => setTimeout(r, round * 4));
    // A reporter on the other instance spends the whole $1 budget in one report.
    const reporter = g.agents[AGENTS - 1 - round] as Client;
    const spent = await reporter.callTool({
      name: "report_usage",
      arguments: {
        model: "claude-3-5-haiku",
        input_tokens: 1000,
        output_tokens: 0,
        cost_cents: 100,
        idempotency_key: `spend-${round}`,
      },
    });
    assert.equal(errorCode(spent), undefined, JSON.stringify(spent));
    await assertNothingAfterPause(g.goalId, await Promise.all(claims), g.taskIds);
  }
});
