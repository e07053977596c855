// The watchdog's ladder for questions held by an agent (lib/domain/watchdog/question-ladder.ts, docs/questions.md
// "The watchdog"): a holder that neither answers nor escalates gets ping #1, ping #2, then the question goes one
// hop up as its own escalate_question would (event question_escalated, by: "watchdog"), level after level up to
// the owner; a terminated (or terminating) holder is skipped at once; steps are taken once however many passes
// overlap. In process; the watchdog's passes run at instants the test chooses (an injected clock) with the
// production thresholds (SWITCHBOARD_QUESTION_PING_S = 300 s).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { type AskResult, ask, chain, DB_Q, inboxQid, ownerPending, rest } from "../helpers/questions";

let h: InProcess;
let db: typeof import("@/lib/db");
let watchdog: typeof import("@/lib/jobs/watchdog");
let p: number;
before(async () => {
  h = await startInProcess({ env: { SWITCHBOARD_PROGRESS_EVERY_S: "0.2" } });
  db = await import("@/lib/db");
  watchdog = await import("@/lib/jobs/watchdog");
  p = (await import("@/lib/domain/watchdog/timings")).watchdogTimings().questionPingS;
});
after(async () => {
  await h?.stop();
});

/** A clock that starts now (after every timestamp so far) and moves only when told. */
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

type Ev = { name: string; agentId: number | null; data: Record<string, unknown> };
/** The goal's events about question `qid`, in order. */
async function qEvents(goalId: number, qid: string): Promise<Ev[]> {
  const rows = await db.read(({ db: d }) => d.event.findMany({ where: { goalId }, orderBy: { seq: "asc" } }));
  return rows
    .map((r) => ({
      name: r.name,
      agentId: r.agentId,
      data: JSON.parse(r.dataJson) as Record<string, unknown>,
    }))
    .filter((e) => e.data.qid === qid);
}
const pings = (l: Ev[]) => l.filter((e) => e.name === "watchdog.question_ping");
const byWatchdog = (l: Ev[]) => l.filter((e) => e.name === "question_escalated" && e.data.by === "watchdog");

/** The watchdog messages about `qid` in agent `id`'s inbox (read or not). */
const pingMessages = (id: string, qid: string) =>
  db.read(({ db: d }) =>
    d.message.findMany({
      where: { recipientAgentId: Number(id), kind: "watchdog", content: { contains: qid } },
      orderBy: { id: "asc" },
      select: { content: true, senderKind: true },
    }),
  );

const holder = async (qid: string) =>
  (await db.read(({ db: d }) => d.question.findUniqueOrThrow({ where: { id: qid } }))).holderId;

test("an ask_user question nobody answers: ping #1, ping #2, one hop up, again at the next level, then the owner, who answers", async () => {
  const { e, l, c, token, goal } = await chain(h);
  const call = ask(e.client, { questions: [DB_Q], context: "We need durable storage." });
  const qid = await inboxQid(l.client);
  const clock = testClock();
  const log = () => qEvents(goal.goal_id, qid);

  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(pings(await log()), [], "no ping before QUESTION_PING_S");
  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(
    pings(await log()).map((x) => [x.data.ping, String(x.agentId)]),
    [[1, l.id]],
  );
  // Ping #1 is a system message in the holder's inbox naming the qid, the asker and the escalation to come.
  const inbox1 = sc<{ messages: { kind: string; from: string; content: string }[]; ack: number }>(
    await l.client.callTool({ name: "read_inbox", arguments: {} }),
  );
  const m1 = inbox1.messages.find((m) => m.kind === "watchdog" && m.content.includes(qid));
  assert.ok(m1, JSON.stringify(inbox1.messages));
  assert.match(m1.content, /^\[WATCHDOG\] Question qid=q_\w+ from engineer \(agent \d+\)/);
  assert.match(m1.content, new RegExp(`escalated to .*\\(agent ${c.id}\\)`));
  await l.client.callTool({ name: "read_inbox", arguments: { ack: inbox1.ack } });

  await twoPasses(clock.advance(p / 2));
  assert.equal(pings(await log()).length, 1, "ping #2 waits QUESTION_PING_S");
  await twoPasses(clock.advance(p / 2));
  assert.deepEqual(
    pings(await log()).map((x) => x.data.ping),
    [1, 2],
  );
  const toL = await pingMessages(l.id, qid);
  assert.equal(toL.length, 2);
  assert.equal(toL[1]?.senderKind, "system");
  assert.match(
    toL[1]?.content ?? "",
    new RegExp(`ping #2: it will be escalated to .*\\(agent ${c.id}\\).* in ~${p} s`),
  );
  assert.deepEqual(byWatchdog(await log()), []);
  assert.equal(await holder(qid), Number(l.id));

  // Third step: passed up to L's leader, exactly as L's escalate_question would.
  await twoPasses(clock.advance(p));
  const up1 = byWatchdog(await log());
  assert.equal(up1.length, 1);
  assert.deepEqual(
    { from: up1[0]?.data.from, to: up1[0]?.data.to, agent: String(up1[0]?.agentId) },
    { from: l.id, to: c.id, agent: l.id },
  );
  assert.equal(await holder(qid), Number(c.id));
  assert.match(await inboxQid(c.client), new RegExp(`^${qid}$`));

  // The new holder's clock starts at the escalation: the ladder repeats for C, then the owner holds it.
  await twoPasses(clock.advance(p - 1));
  assert.equal(pings(await log()).length, 2, "C's ladder starts afresh");
  await twoPasses(clock.advance(1));
  await twoPasses(clock.advance(p));
  assert.deepEqual(
    pings(await log()).map((x) => [x.data.ping, String(x.agentId)]),
    [
      [1, l.id],
      [2, l.id],
      [1, c.id],
      [2, c.id],
    ],
  );
  assert.match((await pingMessages(c.id, qid))[1]?.content ?? "", /escalated to the owner in ~/);
  await twoPasses(clock.advance(p));
  const up2 = byWatchdog(await log());
  assert.deepEqual(
    up2.map((x) => [x.data.from, x.data.to]),
    [
      [l.id, c.id],
      [c.id, "__user__"],
    ],
  );
  // Held by the owner now: not chased any further.
  for (let i = 0; i < 4; i++) await twoPasses(clock.advance(p));
  assert.equal(pings(await log()).length, 4);
  assert.equal(byWatchdog(await log()).length, 2);

  const view = await ownerPending(h, token, qid);
  assert.equal(view.holder, "__user__");
  assert.deepEqual(
    view.hops.map((x) => [x.from, x.to]),
    [
      [l.id, c.id],
      [c.id, "__user__"],
    ],
  );
  assert.match(view.hops[0]?.reason ?? "", /neither answered nor passed on after two reminders/);
  const ans = await rest(h, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: ["SQLite"], text: null }],
  });
  assert.equal(ans.status, 200, JSON.stringify(ans.json));
  const r = sc<AskResult>(await call);
  assert.equal(r.answer_text, "Database: SQLite");
});

/** A goal whose coordinator leads one agent, and one approved task (the autonomy tests' fixture). */
async function goalWithTask() {
  const g = await goalWithAgents(h, 1);
  const [coordinator] = g.agents;
  assert.ok(coordinator);
  const proposed = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: g.goal.goal_id,
      tree: { title: "Write the guide", description: "Write the user guide.", children: [] },
    },
  });
  const id = sc<{ proposal_message_id: number }>(proposed).proposal_message_id;
  assert.equal((await rest(h, "POST", `/api/approvals/${id}/approve`, g.token, {})).status, 200);
  const task = await db.read(({ db: d }) =>
    d.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id }, select: { id: true } }),
  );
  return { ...g, taskId: task.id };
}

test("an approval request the leader ignores (supervised claim_task) reaches the owner, whose Allow lets the call proceed", async () => {
  const g = await goalWithTask();
  const [c, a] = g.agents;
  assert.ok(c && a);
  await db.write(({ db: d }) =>
    d.agent.update({ where: { id: Number(a.id) }, data: { autonomyTier: "supervised" } }),
  );
  const held = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(held), "approval_required");
  const qid = (held.structuredContent as { error: { details: { qid: string; approver: string } } }).error
    .details.qid;
  assert.equal(await holder(qid), Number(c.id));
  const clock = testClock();
  for (let i = 0; i < 3; i++) await twoPasses(clock.advance(p));
  const l = await qEvents(g.goal.goal_id, qid);
  assert.deepEqual(
    pings(l).map((x) => x.data.ping),
    [1, 2],
  );
  assert.match((await pingMessages(c.id, qid))[0]?.content ?? "", /^\[WATCHDOG\] Approval request qid=/);
  assert.deepEqual(
    byWatchdog(l).map((x) => [x.data.from, x.data.to]),
    [[c.id, "__user__"]],
  );
  // Still pending for the agent until the owner decides; the owner's Allow lets the claim through.
  const again = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(again), "approval_required");
  const view = await ownerPending(h, g.token, qid);
  assert.equal(view.origin, "autonomy");
  const ans = await rest(h, "POST", `/api/questions/${qid}/answer`, g.token, {
    answers: [{ selected_labels: ["Allow"], text: null }],
  });
  assert.equal(ans.status, 200, JSON.stringify(ans.json));
  const ok = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(ok), undefined, JSON.stringify(ok));
  const task = await db.read(({ db: d }) => d.goalTask.findUniqueOrThrow({ where: { id: g.taskId } }));
  assert.equal(task.status, "claimed");
});

test("a holder that answers, or escalates itself, in time is never pinged again nor escalated by the watchdog", async () => {
  const { e, l, c, goal } = await chain(h);
  // Answered before the first ping.
  const first = ask(e.client, { questions: [DB_Q] });
  const q1 = await inboxQid(l.client);
  const clock = testClock();
  await twoPasses(clock.advance(p / 2));
  const answered = await l.client.callTool({
    name: "answer_question",
    arguments: {
      qid: q1,
      answers: [{ selected_labels: ["PostgreSQL"], text: null }],
      reason: "team knows it",
    },
  });
  assert.equal(errorCode(answered), undefined, JSON.stringify(answered));
  assert.equal(sc<AskResult>(await first).answer_text, "Database: PostgreSQL");
  // Pinged once, then escalated by the holder itself, and answered above.
  const second = ask(e.client, { questions: [{ ...DB_Q, question: "And the cache?" }] });
  const q2 = await inboxQid(l.client);
  await twoPasses(clock.advance(p));
  assert.deepEqual(
    pings(await qEvents(goal.goal_id, q2)).map((x) => [x.data.ping, String(x.agentId)]),
    [[1, l.id]],
  );
  const esc = await l.client.callTool({
    name: "escalate_question",
    arguments: { qid: q2, reason: "C decides" },
  });
  assert.equal(errorCode(esc), undefined, JSON.stringify(esc));
  assert.equal(await inboxQid(c.client), q2);
  const ans = await c.client.callTool({
    name: "answer_question",
    arguments: { qid: q2, answers: [{ selected_labels: ["SQLite"], text: null }], reason: "simple" },
  });
  assert.equal(errorCode(ans), undefined, JSON.stringify(ans));
  await second;
  for (let i = 0; i < 6; i++) await twoPasses(clock.advance(p));
  assert.deepEqual(pings(await qEvents(goal.goal_id, q1)), []);
  assert.deepEqual(
    pings(await qEvents(goal.goal_id, q2)).map((x) => x.data.ping),
    [1],
    "no ping #2 after the holder acted",
  );
  assert.deepEqual(byWatchdog(await qEvents(goal.goal_id, q1)), []);
  assert.deepEqual(byWatchdog(await qEvents(goal.goal_id, q2)), []);
  // The escalation by the holder reset the stage for the new holder.
  const row = await db.read(({ db: d }) => d.question.findUniqueOrThrow({ where: { id: q2 } }));
  assert.equal(row.status, "answered");
  assert.equal(row.watchStage, 0);
});

test("a terminated or terminating holder: escalated at the next tick, without pings, once", async () => {
  for (const end of [
    { status: "terminated", terminateConsumed: true },
    { terminatePostedAt: new Date() },
  ] as const) {
    const { e, l, c, goal } = await chain(h);
    const call = ask(e.client, { questions: [DB_Q] });
    call.catch(() => {}); // left pending: the harness closes the client at the end
    const qid = await inboxQid(l.client);
    await db.write(({ db: d }) => d.agent.update({ where: { id: Number(l.id) }, data: end }));
    const clock = testClock();
    await twoPasses(clock.now());
    const log = await qEvents(goal.goal_id, qid);
    assert.deepEqual(pings(log), [], JSON.stringify(end));
    assert.deepEqual(
      byWatchdog(log).map((x) => [x.data.from, x.data.to]),
      [[l.id, c.id]],
      JSON.stringify(end),
    );
    assert.match(String(byWatchdog(log)[0]?.data.reason), /terminated/);
    assert.equal(await holder(qid), Number(c.id));
    assert.equal(await inboxQid(c.client), qid);
  }
});
