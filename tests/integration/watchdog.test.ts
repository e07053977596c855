// The watchdog on a clock the test advances: the review ladder (ping, ping, owner), the idle-leaf ladder,
// the terminate grace, and "exactly one per deployment" (conditional steps, the lease). The agents act
// over HTTP on a real server whose own watchdog is off; the watchdog's passes run in this process on the
// same database, each at a time the test chooses, with the production thresholds (60 s / 120 s / 60 s).
// One last test starts a server whose watchdog runs on the wall clock, to show the scheduler works.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, startServer, type TestServer } from "../helpers/server";
import {
  agentClient,
  call,
  drain,
  type EventRow,
  events,
  eventually,
  goalWithCoordinator,
  task,
} from "./teams-helpers";

let server: TestServer;
let watchdog: typeof import("@/lib/jobs/watchdog");
let timings: import("@/lib/domain/watchdog/timings").WatchdogTimings;
let gate: typeof import("@/lib/domain/reviews/review-gate");
let lease: typeof import("@/lib/domain/teams/lease");
let db: typeof import("@/lib/db");

before(async () => {
  server = await startServer({ env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_TOOL_CALL_TOUCH_S: "0" } });
  // This process opens the server's database; its watchdog keeps the defaults (none set here).
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  process.env.SWITCHBOARD_DATA_DIR = server.env.SWITCHBOARD_DATA_DIR;
  process.env.LOG_LEVEL = "warn";
  watchdog = await import("@/lib/jobs/watchdog");
  timings = (await import("@/lib/domain/watchdog/timings")).watchdogTimings();
  gate = await import("@/lib/domain/reviews/review-gate");
  lease = await import("@/lib/domain/teams/lease");
  db = await import("@/lib/db");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

/** A clock that starts now (after every server-side timestamp so far) and moves only when told. */
function testClock() {
  let t = Date.now();
  return {
    now: () => new Date(t),
    advance(seconds: number) {
      t += seconds * 1000;
      return new Date(t);
    },
  };
}

/** Two passes at the same instant, overlapping, as two instances would run them. */
const twoPasses = (now: Date) => Promise.all([watchdog.watchdogPass(now), watchdog.watchdogPass(now)]);

const named = (l: EventRow[], name: string) => l.filter((e) => e.event === name);

async function childInReview(server: TestServer) {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id,
  );
  await call(a, "signal_review", { detail: "[REVIEW REQUIRED] please look" });
  return { c, a, goal, token };
}

test("a forgotten review: ping #1, ping #2, then the owner; exactly one of each with two overlapping passes", async () => {
  const { c, goal, token } = await childInReview(server);
  const clock = testClock();
  const p = timings.reviewPingS;
  const log = () => events(server, token, goal.goal_id);

  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(named(await log(), "watchdog.review_ping"), [], "no ping before REVIEW_PING_S");
  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(
    named(await log(), "watchdog.review_ping").map((e) => e.data.ping),
    [1],
  );
  await twoPasses(clock.advance(p / 2));
  assert.equal(named(await log(), "watchdog.review_ping").length, 1, "ping #2 waits REVIEW_PING_S");
  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(
    named(await log(), "watchdog.review_ping").map((e) => e.data.ping),
    [1, 2],
  );
  assert.deepEqual(named(await log(), "review.escalated_to_user"), []);
  await twoPasses(clock.advance(p));
  // Time goes on: nothing further may happen.
  for (let i = 0; i < 3; i++) await twoPasses(clock.advance(p));

  const final = await log();
  assert.deepEqual(
    named(final, "watchdog.review_ping").map((e) => e.data.ping),
    [1, 2],
  );
  assert.equal(named(final, "review.escalated_to_user").length, 1);
  const esc = final.filter((e) => e.event === "question_asked" && e.data.origin === "review_escalation");
  assert.equal(esc.length, 1, "exactly one owner question for the ignored review");
  assert.ok(
    final.findIndex((e) => e.event === "review.escalated_to_user") >
      final.findIndex((e) => e.event === "watchdog.review_ping" && e.data.ping === 2),
  );
  const inbox = await drain(c);
  const pings = inbox.filter((m) => m.kind === "watchdog" && /waiting for your review/.test(m.content));
  assert.equal(pings.length, 2);
  assert.match(pings[1]?.content ?? "", /escalated to the owner/);
});

test("acknowledging the review stops the ladder", async () => {
  const { c, a, goal, token } = await childInReview(server);
  const clock = testClock();
  const p = timings.reviewPingS;
  await watchdog.watchdogPass(clock.advance(p));
  assert.equal(named(await events(server, token, goal.goal_id), "watchdog.review_ping").length, 1);
  await call(c, "send_message", { to: a.id, content: "rework please" });
  for (let i = 0; i < 4; i++) await watchdog.watchdogPass(clock.advance(p));
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

/** A runner reported the agents' launch running at `at` (what `POST /api/runner/agents/:id/state` records). */
const launched = (ids: (string | number)[], at: Date) =>
  db.write(({ db: d }) =>
    d.agent.updateMany({
      where: { id: { in: ids.map(Number) } },
      data: { runState: "running", runStartedAt: at, launchSeq: 1 },
    }),
  );

test("an idle leaf agent is nudged twice, then the owner is told; an agent that keeps calling tools is never nudged", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("idle"), task("busy")] });
  const idle = (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "idle" })).agent_id;
  const busy = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "busy" })).agent_id,
  );
  await call(busy, "whoami");
  const clock = testClock();
  // Nobody launched `idle` yet (queued): not running, so not idle, however long it waits (issue 11).
  clock.advance(timings.idleNudgeS * 10);
  await watchdog.watchdogPass(clock.now());
  assert.ok(
    !(await events(server, token, goal.goal_id)).some(
      (e) => e.event.startsWith("watchdog.idle") || e.event === "idle.escalated_to_user",
    ),
    "an agent nobody launched is never nudged",
  );
  // A runner launches both now: idleness counts from the launch.
  await launched([idle, busy.id], clock.now());
  // `busy` calls a tool at every moment the watchdog looks; `idle` never does. A call at the test's time
  // is recorded by the hook every agent tool call runs first (the one /mcp runs).
  const busyCalls = () =>
    gate.beforeAgentTool({ agentId: Number(busy.id), goalId: goal.goal_id }, "whoami", clock.now());
  const steps = [timings.idleNudgeS / 2, timings.idleNudgeS / 2, timings.reviewPingS, timings.reviewPingS];
  const seen: number[] = [];
  for (const s of steps) {
    clock.advance(s);
    await busyCalls();
    await watchdog.watchdogPass(clock.now());
    const nudges = (await events(server, token, goal.goal_id)).filter(
      (e) => e.event === "watchdog.idle_nudge" && String(e.agent_id) === idle,
    );
    seen.push(nudges.length);
  }
  assert.deepEqual(seen, [0, 1, 2, 2], "nudge #1 after IDLE_NUDGE_S, #2 one REVIEW_PING_S later");
  for (let i = 0; i < 3; i++) {
    clock.advance(timings.reviewPingS);
    await busyCalls();
    await watchdog.watchdogPass(clock.now());
  }
  const log = await events(server, token, goal.goal_id);
  assert.equal(
    log.filter((e) => e.event === "idle.escalated_to_user" && String(e.agent_id) === idle).length,
    1,
  );
  assert.deepEqual(
    log
      .filter((e) => e.event === "watchdog.idle_nudge" && String(e.agent_id) === idle)
      .map((n) => n.data.nudge),
    [1, 2],
  );
  assert.ok(
    !log.some((e) => e.event.startsWith("watchdog.idle") && String(e.agent_id) === busy.id),
    "busy is never nudged while it calls tools",
  );
  assert.ok(
    !log.some((e) => e.event === "watchdog.idle_nudge" && String(e.agent_id) === c.id),
    "leaders are not idle leaves",
  );
  const inbox = await drain(await agentClient(server, idle));
  assert.equal(inbox.filter((m) => m.kind === "watchdog").length, 2);
});

test("idle agents reach the owner as ONE card per goal listing them all; Terminate them ends every one listed", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("x"), task("y"), task("z")] });
  const ids = [];
  for (const t of ["x", "y", "z"])
    ids.push((await call<{ agent_id: string }>(c, "spawn_agent", { task_id: t })).agent_id);
  const clock = testClock();
  await launched(ids, clock.now());
  // Two nudges, then the owner: every agent climbs the ladder at the same passes.
  for (const s of [timings.idleNudgeS, timings.reviewPingS, timings.reviewPingS, timings.reviewPingS]) {
    await watchdog.watchdogPass(clock.advance(s));
  }
  const log = await events(server, token, goal.goal_id);
  assert.equal(named(log, "idle.escalated_to_user").length, 3);
  const cards = (await (
    await server.fetch(`/api/questions?status=pending&goal_id=${goal.goal_id}&kind=watchdog`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as {
    total: number;
    questions: { qid: string; questions: { question: string; options: { label: string }[] }[] }[];
  };
  assert.equal(cards.total, 1, "one card for the goal, not one question per agent");
  const card = cards.questions[0];
  assert.ok(card);
  for (const id of ids) assert.match(card.questions[0]?.question ?? "", new RegExp(`#${id}\\)`));
  assert.deepEqual(
    card.questions[0]?.options.map((o) => o.label),
    ["Nudge them again", "Restart them", "Terminate them", "Leave them"],
  );
  const answered = await server.fetch(`/api/questions/${card.qid}/answer`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ answers: [{ selected_labels: ["Terminate them"], text: null }] }),
  });
  assert.equal(answered.status, 200, await answered.text());
  const after = await events(server, token, goal.goal_id);
  for (const id of ids) {
    assert.ok(
      after.some(
        (e) =>
          e.event === "agent_completed" &&
          String(e.agent_id) === id &&
          e.data.reason === "terminated_by_owner",
      ),
      `agent ${id} ended`,
    );
  }
  assert.ok(
    !after.some((e) => e.event === "agent_completed" && String(e.agent_id) === c.id),
    "not the coordinator",
  );
});

test("an unread terminate sentinel: the agent is ended after the grace period (terminate.forced watchdog_grace)", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id;
  await call(c, "terminate_child", { agent_id: a, force: true });
  const clock = testClock();
  const forced = async () =>
    (await events(server, token, goal.goal_id)).filter(
      (e) => e.event === "terminate.forced" && e.data.reason === "watchdog_grace",
    );
  await twoPasses(clock.advance(timings.terminateGraceS / 2));
  assert.deepEqual(await forced(), [], "not before TERMINATE_GRACE_S");
  await twoPasses(clock.advance(timings.terminateGraceS / 2));
  await twoPasses(clock.advance(timings.terminateGraceS));
  assert.equal((await forced()).length, 1);
  const r = await c.client.callTool({ name: "send_message", arguments: { to: a, content: "x" } });
  assert.equal(errorCode(r), "recipient_terminated");
});

test("exactly one instance works per tick: the lease, renewed each tick, taken over once it expires", async () => {
  const clock = testClock();
  const [x, y] = await Promise.all([
    watchdog.watchdogTick("instance-x", clock.now()),
    watchdog.watchdogTick("instance-y", clock.now()),
  ]);
  assert.equal([x, y].filter((r) => r !== undefined).length, 1, "one of two instances passes");
  const [holder, other] = x !== undefined ? ["instance-x", "instance-y"] : ["instance-y", "instance-x"];
  try {
    clock.advance(30);
    assert.notEqual(await watchdog.watchdogTick(holder, clock.now()), undefined, "the holder renews");
    assert.equal(await watchdog.watchdogTick(other, clock.now()), undefined);
    // The holder stops ticking (a crash): after the lease (three ticks) the other takes over.
    clock.advance(91);
    assert.notEqual(await watchdog.watchdogTick(other, clock.now()), undefined, "takeover after expiry");
    assert.equal(await watchdog.watchdogTick(holder, clock.now()), undefined);
  } finally {
    // Leave the lease free for the next test's real scheduler.
    await lease.releaseLease("watchdog", holder);
    await lease.releaseLease("watchdog", other);
  }
});

test("in production the scheduler runs the watchdog on the wall clock", async () => {
  // A second server on the same database with its watchdog on and a short grace.
  const live = await startServer({
    env: { SWITCHBOARD_WATCHDOG_TICK_S: "0.2", SWITCHBOARD_TERMINATE_GRACE_S: "1" },
    shareDatabaseWith: server,
  });
  try {
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
      20_000,
      "grace on the wall clock",
    );
    assert.equal(
      l.filter((e) => e.event === "terminate.forced" && e.data.reason === "watchdog_grace").length,
      1,
    );
  } finally {
    await live.stop();
  }
});
