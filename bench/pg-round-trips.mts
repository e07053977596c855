// Round trips and statements per MCP call on PostgreSQL (issue 15), counted in process: the in-process
// harness (tests/helpers/in-process.ts: real SDK clients, `buildServer`, authentication per request) on a
// fresh PostgreSQL database, and lib/db's `dbTraffic()` (statements sent, socket writes) around each call.
//   npx tsx bench/pg-round-trips.mts [--calls 20]
// Each figure is the mean over `--calls` calls, after a warm-up call per agent, within the touch intervals
// of `lastUsedAt` (60 s) and `lastToolCallAt` (5 s): the steady state of a busy agent. Includes the
// coalesced NOTIFY sent after a write unit's COMMIT (one per call here: the calls are sequential).
import { parseArgs } from "node:util";
import { goalWithAgents, sc, startInProcess } from "../tests/helpers/in-process";

const { values: opt } = parseArgs({ options: { calls: { type: "string", default: "20" } } });
const CALLS = Number(opt.calls);

const h = await startInProcess({ provider: "postgres", env: { SWITCHBOARD_INBOX_CAP: "100000" } });
const db = await import("@/lib/db");
const { agents, goal } = await goalWithAgents(h, 2);
const [, a, b] = agents;
if (!a || !b) throw new Error("no agents");

/** Let after-commit work (the NOTIFY) finish before reading the counters. */
const settle = () => new Promise((r) => setTimeout(r, 30));

async function measure(
  label: string,
  call: (i: number) => Promise<unknown>,
  prepare?: (i: number) => Promise<unknown>,
) {
  let statements = 0;
  let writes = 0;
  for (let i = 0; i < CALLS; i++) {
    await prepare?.(i);
    await settle();
    const t0 = await db.dbTraffic();
    const r = await call(i);
    if ((r as { isError?: boolean }).isError) throw new Error(`${label}: ${JSON.stringify(r)}`);
    await settle();
    const t1 = await db.dbTraffic();
    if (!t0 || !t1) throw new Error("not PostgreSQL");
    statements += t1.statements - t0.statements;
    writes += t1.writes - t0.writes;
  }
  const row = { call: label, round_trips: writes / CALLS, statements: statements / CALLS };
  console.log(JSON.stringify(row));
  return row;
}

// Warm-up: one call of each kind per agent (touches, prepared statements).
for (const c of [a, b]) {
  await c.client.callTool({ name: "whoami", arguments: {} });
  await c.client.callTool({ name: "read_inbox", arguments: {} });
}
await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "warm" } });
let ack = sc<{ ack: number }>(await b.client.callTool({ name: "read_inbox", arguments: {} })).ack;

const rows = [];
const sendDuringWait = { statements: 0, writes: 0 };
rows.push(await measure("whoami", () => a.client.callTool({ name: "whoami", arguments: {} })));
rows.push(
  await measure("send_message", () =>
    a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "hello" } }),
  ),
);
rows.push(
  await measure(
    "read_inbox (1 message, ack)",
    async () => {
      const r = await b.client.callTool({ name: "read_inbox", arguments: { ack } });
      ack = sc<{ ack: number }>(r).ack;
      return r;
    },
    () => a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "hello" } }),
  ),
);
rows.push(
  await measure("read_inbox (empty, ack)", async () => {
    const r = await b.client.callTool({ name: "read_inbox", arguments: { ack } });
    ack = sc<{ ack: number }>(r).ack;
    return r;
  }),
);
rows.push(
  await measure("read_inbox wait (woken by a message; the send not counted)", async () => {
    const waiting = b.client.callTool({ name: "read_inbox", arguments: { ack, wait_seconds: 10 } });
    await new Promise((r) => setTimeout(r, 50));
    // The send's own traffic is subtracted: measured alone above.
    const before = await db.dbTraffic();
    await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "wake" } });
    await settle();
    const after = await db.dbTraffic();
    const r = await waiting;
    ack = sc<{ ack: number }>(r).ack;
    sendDuringWait.statements += (after?.statements ?? 0) - (before?.statements ?? 0);
    sendDuringWait.writes += (after?.writes ?? 0) - (before?.writes ?? 0);
    return r;
  }),
);
const last = rows.at(-1);
if (last) {
  last.round_trips -= sendDuringWait.writes / CALLS;
  last.statements -= sendDuringWait.statements / CALLS;
  console.log(JSON.stringify({ ...last, note: "minus the send" }));
}
const tasks = await db.write(async (u) => {
  const ids: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = await u.db.goalTask.create({
      data: { goalId: goal.goal_id, title: `task ${i}`, description: "d", status: "approved" },
    });
    ids.push(t.id);
  }
  return ids;
});
rows.push(
  await measure("claim_task", (i) =>
    a.client.callTool({ name: "claim_task", arguments: { task_id: tasks[i] } }),
  ),
);
rows.push(
  await measure("report_usage", (i) =>
    b.client.callTool({
      name: "report_usage",
      arguments: { model: "claude-sonnet-4-5", input_tokens: 10, output_tokens: 5, idempotency_key: `k${i}` },
    }),
  ),
);
console.log("\n| call | round trips | statements |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.call} | ${r.round_trips.toFixed(2)} | ${r.statements.toFixed(2)} |`);
await db.disconnect();
await h.stop();
