// `npm run demo` end to end, headless (issue 11 §5): the demo's own start (scripts/demo.mts) — the
// production server with its embedded runner on a fresh SQLite database, real Claude Code sessions (the
// Agent SDK's bundled CLI) against the stand-in model playing lib/standin/demo-team.ts. The owner's part is
// played through the REST API: answer the researcher's question, approve the coordinator's final review.
// SQLite only: the demo is the SQLite one-laptop path (the same runner code runs on PostgreSQL in
// runner-claude-code.test.ts).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { type Demo, startDemo } from "@/lib/standin/demo";
import { DEMO_OPTIONS, DEMO_QUESTION, DEMO_ROLES } from "@/lib/standin/demo-team";
import { claudeCodeUnavailable } from "../helpers/claude-code";
import type { Surface } from "../helpers/server";
import { type EventRow, events, eventually } from "../helpers/teams";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`SKIPPING demo test: ${unavailable}`);
const postgres = process.env.TEST_DATABASE === "postgres";
const skip = unavailable
  ? `Claude Code cannot start here: ${unavailable}`
  : postgres
    ? "the demo runs on SQLite only"
    : false;

let demo: Demo | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-demo-"));

before(async () => {
  if (skip) return;
  demo = await startDemo({ port: 0, dir, serverLog: !!process.env.TEST_SERVER_LOG });
});

after(async () => {
  await demo?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Question = { qid: string; origin: string; questions: { question: string }[]; asker_agent_id?: number };

/** The owner's REST calls on the demo hub. */
async function rest<T>(p: string, init: RequestInit = {}): Promise<T> {
  const d = demo as Demo;
  const r = await fetch(new URL(p, d.url), {
    ...init,
    headers: { authorization: `Bearer ${d.ownerToken}`, "content-type": "application/json" },
  });
  const body = await r.json();
  assert.ok(r.ok, `${p}: ${r.status} ${JSON.stringify(body)}`);
  return body as T;
}

/**
 * Plays the owner's part on one goal (answer the question with `chosen`, approve the final review) and checks
 * the story: the plan, both agents' tasks done through an approved review, the answer reaching the researcher,
 * usage recorded, the goal completed, every agent ended.
 */
async function play(goalId: number, chosen: string) {
  const d = demo as Demo;
  const pending = async (origin: string) =>
    (await rest<{ questions: Question[] }>(`/api/questions?status=pending&goal_id=${goalId}`)).questions.find(
      (q) => q.origin === origin,
    );
  const surface = { fetch: (p: string, i?: RequestInit) => fetch(new URL(p, d.url), i) } as Surface;
  const log = () => events(surface, d.ownerToken, goalId);

  // The researcher's question climbs to the coordinator, which passes it up: it waits for the owner.
  const question = await eventually(
    () => pending("agent"),
    90_000,
    `goal ${goalId}: the researcher's question`,
  );
  assert.equal(question.questions[0]?.question, DEMO_QUESTION);
  await rest(`/api/questions/${question.qid}/answer`, {
    method: "POST",
    body: JSON.stringify({ answers: [{ selected_labels: [chosen] }] }),
  });

  // Both agents hand in, the coordinator approves them and asks the owner for the final review.
  const review = await eventually(() => pending("root_review"), 90_000, `goal ${goalId}: the final review`);
  await rest(`/api/questions/${review.qid}/answer`, {
    method: "POST",
    body: JSON.stringify({ answers: [{ selected_labels: ["Approve"] }] }),
  });
  const snap = await eventually(
    async () => {
      const s = await rest<{
        goal: { status: string; coordinator_agent_id: number };
        spawned_agents: { agent_id: number; role: string; status: string; leader: string }[];
      }>(`/api/goals/${goalId}`);
      return s.goal.status === "completed" ? s : undefined;
    },
    30_000,
    `goal ${goalId} completed`,
  );
  const rows = await log();
  const named = (name: string, pred: (e: EventRow) => boolean = () => true) =>
    rows.filter((e) => e.event === name && pred(e));
  const coord = snap.goal.coordinator_agent_id;
  const children = snap.spawned_agents.filter((a) => a.leader === String(coord));
  assert.deepEqual(children.map((a) => a.role).sort(), [DEMO_ROLES.researcher, DEMO_ROLES.writer]);

  // Everyone ran as Claude Code on the embedded runner.
  for (const a of [coord, ...children.map((c) => c.agent_id)]) {
    assert.equal(named("agent_started", (e) => e.agent_id === a)[0]?.data.runtime, "claude-code", `#${a}`);
  }
  // The plan, both tasks done through an approved review each.
  assert.equal(named("plan_declared").length, 1);
  assert.deepEqual(
    named("task_done")
      .map((e) => e.data.task_id)
      .sort(),
    ["draft", "research"],
  );
  for (const c of children) {
    assert.ok(
      named("status", (e) => e.agent_id === c.agent_id && e.data.state === "review_pending").length > 0,
      `${c.role} signalled review`,
    );
    assert.ok(named("review.approved", (e) => e.agent_id === c.agent_id).length > 0, `${c.role} approved`);
  }
  // The owner's answer reached the researcher: its review names the audience chosen.
  const researcher = children.find((c) => c.role === DEMO_ROLES.researcher);
  const handedIn = named(
    "status",
    (e) => e.agent_id === researcher?.agent_id && e.data.state === "review_pending",
  );
  assert.match(
    String(handedIn[0]?.data.detail),
    new RegExp(chosen),
    `goal ${goalId}: the answer reached the researcher`,
  );
  // The question went researcher → coordinator → owner.
  assert.ok(named("question_escalated", (e) => e.agent_id === coord && e.data.to === "__user__").length > 0);
  assert.equal(named("goal_completed").length, 1);
  // Usage was recorded for the turns (the stand-in reports tokens).
  assert.ok(named("turn.usage").length >= 3, "turn usage recorded");
  // Every agent ends: the children and the coordinator consumed their terminate notice.
  await eventually(
    async () => {
      const r = await log();
      const ended = new Set(r.filter((e) => e.event === "agent_completed").map((e) => e.agent_id));
      return [coord, ...children.map((c) => c.agent_id)].every((a) => ended.has(a));
    },
    30_000,
    `goal ${goalId}: every agent completed`,
  );
}

test("the demo team plays its goal, and a goal the owner creates meanwhile is played the same: a plan, two spawned agents, the owner's answer reaches the asker, both reviews approved, the owner's approval completes each goal", {
  skip,
  timeout: 150_000,
}, async () => {
  const d = demo as Demo;
  // The owner creates a second goal (as in the browser) while the demo goal is under way.
  const second = await rest<{ goal_id: number }>("/api/goals", {
    method: "POST",
    body: JSON.stringify({ title: "Tidy the changelog", description: "A goal of the owner's own." }),
  });
  await Promise.all([play(d.goalId, DEMO_OPTIONS[1]), play(second.goal_id, DEMO_OPTIONS[0])]);
});
