// The watchdog with shortened timings: the review ladder (ping, ping, owner), the idle-leaf ladder,
// the terminate grace, and "exactly one per deployment" with two server processes on one database.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, startServer, type TestServer } from "../helpers/server";
import { agentClient, call, drain, events, eventually, goalWithCoordinator, task } from "./teams-helpers";

const TIMINGS = {
  SWITCHBOARD_WATCHDOG_TICK_S: "0.3",
  SWITCHBOARD_REVIEW_PING_S: "1.5",
  SWITCHBOARD_IDLE_NUDGE_S: "2",
  SWITCHBOARD_TERMINATE_GRACE_S: "1.5",
  SWITCHBOARD_TOOL_CALL_TOUCH_S: "0",
};

let server: TestServer;
let second: TestServer;
before(async () => {
  server = await startServer({ env: TIMINGS });
  // A second instance on the same database: the lease must keep the ladder to one ping per step.
  second = await startServer({ env: TIMINGS, shareDatabaseWith: server });
});
after(async () => {
  await second?.stop();
  await server?.stop();
});

test("a forgotten review: ping #1, ping #2, then the owner; exactly one of each with two instances", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id,
  );
  const t0 = Date.now();
  await call(a, "signal_review", { detail: "[REVIEW REQUIRED] please look" });
  const log = await eventually(
    async () => {
      const l = await events(server, token, goal.goal_id);
      return l.some((e) => e.event === "review.escalated_to_user") ? l : undefined;
    },
    30_000,
    "review escalation",
  );
  const elapsed = Date.now() - t0;
  assert.ok(elapsed >= 4000, `three steps of 1.5 s take at least 4.5 s (took ${elapsed} ms)`);
  // Let a few more ticks pass: nothing further may happen.
  await new Promise((r) => setTimeout(r, 1500));
  const final = await events(server, token, goal.goal_id);
  const pings = final.filter((e) => e.event === "watchdog.review_ping");
  assert.deepEqual(
    pings.map((p) => p.data.ping),
    [1, 2],
  );
  assert.equal(final.filter((e) => e.event === "review.escalated_to_user").length, 1);
  const esc = final.filter((e) => e.event === "question_asked" && e.data.origin === "review_escalation");
  assert.equal(esc.length, 1, "exactly one owner question for the ignored review");
  assert.ok(
    log.findIndex((e) => e.event === "review.escalated_to_user") > log.findIndex((e) => e.data.ping === 2),
  );
  const inbox = await drain(c);
  // (The coordinator may also have had an idle nudge before its first call: it was a leaf then.)
  const watchdog = inbox.filter((m) => m.kind === "watchdog" && /waiting for your review/.test(m.content));
  assert.equal(watchdog.length, 2);
  assert.match(watchdog[1]?.content ?? "", /escalated to the owner/);
});

test("acknowledging the review stops the ladder", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id,
  );
  await call(a, "signal_review", { detail: "[REVIEW REQUIRED] x" });
  await eventually(async () =>
    (await events(server, token, goal.goal_id)).some((e) => e.event === "watchdog.review_ping"),
  );
  await call(c, "send_message", { to: a.id, content: "rework please" });
  await new Promise((r) => setTimeout(r, 4000));
  const l = await events(server, token, goal.goal_id);
  const ackAt = l.find((e) => e.event === "review.acknowledged")?.seq ?? 0;
  assert.ok(ackAt > 0);
  assert.deepEqual(
    l.filter((e) => e.event === "watchdog.review_ping" && e.seq > ackAt),
    [],
    "no ping after the acknowledgement",
  );
  assert.ok(!l.some((e) => e.event === "review.escalated_to_user"));
});

test("an idle leaf agent is nudged twice, then the owner is told; an agent that keeps calling tools is never nudged", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("idle"), task("busy")] });
  const idle = (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "idle" })).agent_id;
  const busy = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "busy" })).agent_id,
  );
  // `busy` keeps calling tools; `idle` never does.
  let stop = false;
  await call(busy, "whoami");
  // Its key came from a CLI process after the spawn: on a loaded machine that alone can outlast the idle
  // threshold, so only what happens once it is calling counts (one watchdog tick of slack).
  const callingSince = Date.now() + 1000;
  const keepBusy = (async () => {
    while (!stop) {
      await call(busy, "whoami");
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  const log = await eventually(
    async () => {
      const l = await events(server, token, goal.goal_id);
      return l.some((e) => e.event === "idle.escalated_to_user" && String(e.agent_id) === idle)
        ? l
        : undefined;
    },
    30_000,
    "idle escalation",
  );
  stop = true;
  await keepBusy;
  const nudges = log.filter((e) => e.event === "watchdog.idle_nudge" && String(e.agent_id) === idle);
  assert.deepEqual(
    nudges.map((n) => n.data.nudge),
    [1, 2],
  );
  assert.ok(
    !log.some(
      (e) =>
        e.event.startsWith("watchdog.idle") &&
        String(e.agent_id) === busy.id &&
        new Date(e.ts).getTime() > callingSince,
    ),
    "busy is never nudged while it calls tools",
  );
  assert.ok(
    !log.some((e) => e.event === "watchdog.idle_nudge" && String(e.agent_id) === c.id),
    "leaders are not idle leaves",
  );
  const inbox = await drain(await agentClient(server, idle));
  assert.equal(inbox.filter((m) => m.kind === "watchdog").length, 2);
});

test("an unread terminate sentinel: the agent is ended after the grace period (terminate.forced watchdog_grace)", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id;
  await call(c, "terminate_child", { agent_id: a, force: true });
  const l = await eventually(
    async () => {
      const l = await events(server, token, goal.goal_id);
      return l.some((e) => e.event === "terminate.forced" && e.data.reason === "watchdog_grace")
        ? l
        : undefined;
    },
    30_000,
    "grace",
  );
  assert.equal(
    l.filter((e) => e.event === "terminate.forced" && e.data.reason === "watchdog_grace").length,
    1,
  );
  const r = await c.client.callTool({ name: "send_message", arguments: { to: a, content: "x" } });
  assert.equal(errorCode(r), "recipient_terminated");
});
