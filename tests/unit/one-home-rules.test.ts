// Rules that live in one place: "terminated" (predicate and SQL agree), owner scoping, the watchdog's
// ladders on an injected clock.
import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { isTerminated, notTerminatedSql } from "@/lib/domain/agents/terminated";
import { owned } from "@/lib/domain/goals/owned";
import type { Candidate } from "@/lib/domain/watchdog/candidates";
import { idleStep, reviewStep, terminateGraceStep } from "@/lib/domain/watchdog/ladders";
import { type HeldQuestion, questionStep } from "@/lib/domain/watchdog/question-ladder";
import { DomainError } from "@/lib/errors";

test("terminated: the row predicate and the SQL condition agree on every combination of the two columns", () => {
  const sqlite = new Database(":memory:");
  sqlite.exec(
    `CREATE TABLE "Agent" (id INTEGER PRIMARY KEY, status TEXT NOT NULL, "terminateConsumed" BOOLEAN NOT NULL)`,
  );
  const rows = [
    { id: 1, status: "active", terminateConsumed: 0 },
    { id: 2, status: "active", terminateConsumed: 1 },
    { id: 3, status: "terminated", terminateConsumed: 0 },
    { id: 4, status: "terminated", terminateConsumed: 1 },
  ];
  const insert = sqlite.prepare(`INSERT INTO "Agent" VALUES (?, ?, ?)`);
  for (const r of rows) insert.run(r.id, r.status, r.terminateConsumed);
  const live = (alias?: string) =>
    (
      sqlite
        .prepare(
          `SELECT id FROM "Agent"${alias ? ` ${alias}` : ""} WHERE ${notTerminatedSql(alias)} ORDER BY id`,
        )
        .all() as { id: number }[]
    ).map((r) => r.id);
  const byPredicate = rows.filter((r) => !isTerminated(r)).map((r) => r.id);
  assert.deepEqual(byPredicate, [1]);
  assert.deepEqual(live(), byPredicate);
  assert.deepEqual(live("a"), byPredicate);
  assert.equal(isTerminated({ status: "active", terminateConsumed: true }), true);
  assert.equal(isTerminated({ status: "active", terminateConsumed: false }), false);
  sqlite.close();
});

test("owner scoping: the owner's row comes back; another owner's and a missing one are the same not_found", () => {
  const goal = { id: 7, ownerId: 1 };
  assert.equal(
    owned(goal, (g) => g.ownerId, 1, "goal 7"),
    goal,
  );
  for (const [row, owner] of [
    [goal, 2],
    [null, 1],
    [undefined, 1],
  ] as const) {
    assert.throws(
      () => owned(row, (g) => g.ownerId, owner, "goal 7"),
      (e: unknown) => e instanceof DomainError && e.code === "not_found" && e.message === "goal 7 not found",
    );
  }
  assert.throws(
    () =>
      owned(
        { ownerId: null },
        (q) => q.ownerId,
        1,
        () => new DomainError("unknown_qid", "no such question"),
      ),
    (e: unknown) => e instanceof DomainError && e.code === "unknown_qid",
  );
});

const T = { reviewPingS: 60, idleNudgeS: 120, terminateGraceS: 60, questionPingS: 300 };
const t0 = new Date("2026-01-01T00:00:00Z");
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const agent = (over: Partial<Candidate> = {}): Candidate => ({
  id: 5,
  goalId: 1,
  leaderId: 2,
  name: "a",
  teamId: null,
  createdAt: t0,
  lastToolCallAt: null,
  reviewPending: false,
  reviewPendingAt: null,
  reviewStage: 0,
  reviewStageAt: null,
  terminationRequested: false,
  terminationRequestedAt: null,
  termReqStage: 0,
  termReqStageAt: null,
  idleStage: 0,
  idleStageAt: null,
  terminatePostedAt: null,
  runnerManaged: true,
  runState: "running",
  runStartedAt: t0,
  leaf: true,
  ...over,
});

test("watchdog ladders on a given clock: each step falls due exactly at its threshold", () => {
  const review = agent({ reviewPending: true, reviewPendingAt: t0, leaf: false });
  assert.equal(reviewStep(review, at(59.999), T), undefined);
  assert.equal(typeof reviewStep(review, at(60), T), "function");
  const pinged = { ...review, reviewStage: 1, reviewStageAt: at(60) };
  assert.equal(reviewStep(pinged, at(119), T), undefined);
  assert.equal(typeof reviewStep(pinged, at(120), T), "function");
  assert.equal(reviewStep({ ...review, reviewStage: 3, reviewStageAt: at(180) }, at(10_000), T), undefined);
  assert.equal(
    reviewStep({ ...review, leaderId: null }, at(10_000), T),
    undefined,
    "the root's review goes to the owner",
  );

  const idle = agent();
  assert.equal(idleStep(idle, at(119), T), undefined);
  assert.equal(typeof idleStep(idle, at(120), T), "function");
  assert.equal(
    idleStep(agent({ lastToolCallAt: at(100) }), at(219), T),
    undefined,
    "a tool call restarts the wait",
  );
  assert.equal(idleStep(agent({ leaf: false }), at(10_000), T), undefined, "leaders are never idle");
  assert.equal(
    idleStep(agent({ idleStage: 1, idleStageAt: at(120), lastToolCallAt: at(130) }), at(180), T),
    undefined,
    "activity after nudge #1 starts the ladder over",
  );
  // Idleness counts from the launch, for running agents only (issue 11).
  for (const runState of ["queued", "starting", "backoff", "exited", "crashed", null]) {
    assert.equal(
      idleStep(agent({ runState, runStartedAt: runState === "starting" ? null : t0 }), at(10_000), T),
      undefined,
      `a ${runState ?? "never launched"} agent is not running, not idle`,
    );
  }
  const launchedLate = agent({ runStartedAt: at(5_000) });
  assert.equal(idleStep(launchedLate, at(5_119), T), undefined, "counted from the launch, not creation");
  assert.equal(typeof idleStep(launchedLate, at(5_120), T), "function");
  const registered = agent({ runnerManaged: false, runState: null, runStartedAt: null });
  assert.equal(
    idleStep(registered, at(10_000), T),
    undefined,
    "a registered agent never started is not idle",
  );
  assert.equal(typeof idleStep({ ...registered, lastToolCallAt: at(100) }, at(220), T), "function");

  const ending = agent({ terminatePostedAt: at(10) });
  assert.equal(terminateGraceStep(ending, at(69), T), undefined);
  assert.equal(typeof terminateGraceStep(ending, at(70), T), "function");
});

test("the held-question ladder on a given clock: pings at questionPingS and as long again, then one hop up", () => {
  const q = (over: Partial<HeldQuestion> = {}): HeldQuestion => ({
    id: "q_1",
    goalId: 1,
    askerId: 2,
    askerName: "engineer",
    holderId: 3,
    origin: "agent",
    activityAt: t0,
    watchStage: 0,
    watchStageAt: null,
    holderGone: false,
    ...over,
  });
  assert.equal(questionStep(q(), at(299.999), T), undefined);
  assert.equal(typeof questionStep(q(), at(300), T), "function");
  const pinged = q({ watchStage: 1, watchStageAt: at(300) });
  assert.equal(questionStep(pinged, at(599), T), undefined);
  assert.equal(typeof questionStep(pinged, at(600), T), "function");
  const twice = q({ watchStage: 2, watchStageAt: at(600) });
  assert.equal(questionStep(twice, at(899), T), undefined);
  assert.equal(typeof questionStep(twice, at(900), T), "function");
  assert.equal(
    questionStep(q({ watchStage: 2, watchStageAt: at(600), activityAt: at(650) }), at(900), T),
    undefined,
    "activity after the last ping starts the ladder over",
  );
  assert.equal(typeof questionStep(q({ holderGone: true }), at(0), T), "function", "a gone holder: at once");
});
