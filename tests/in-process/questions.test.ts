// ask_user / answer_question / escalate_question through real MCP clients, the owner's REST answer path,
// blocking and durable delivery, races, and the owner gateway's system questions. In process
// (tests/helpers/in-process.ts; REST through the route handlers); the owner's SSE feed and owner isolation
// over REST are in tests/integration/questions.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, type InProcess, sc, startInProcess } from "../helpers/in-process";
import {
  type AskResult,
  ask,
  chain,
  DB_Q,
  type Inbox,
  inboxQid,
  ownerPending,
  type QView,
  rest,
} from "../helpers/questions";

let server: InProcess;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startInProcess({ env: { SWITCHBOARD_PROGRESS_EVERY_S: "0.2" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

async function inbox(client: Client, ack?: number): Promise<Inbox> {
  return sc<Inbox>(
    await client.callTool({ name: "read_inbox", arguments: ack === undefined ? {} : { ack } }),
  );
}

/** Wait until `ok()` holds (checked every 20 ms), or fail naming `what` after 10 s. */
async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("ask_user refuses malformed questions with invalid_input naming the sub-question and field", async () => {
  const { e } = await chain(server);
  const q = (over: Record<string, unknown>) => ({ ...DB_Q, ...over });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ questions: [] }, /questions/],
    [{ questions: [q({}), q({}), q({}), q({}), q({})] }, /questions/],
    [{ questions: [q({}), q({ header: "Thirteen char" })] }, /questions\.1\.header/],
    [{ questions: [q({ options: [{ label: "a", description: "x" }] })] }, /questions\.0\.options/],
    [
      { questions: [q({ options: [{ label: "a" }, { label: "b", description: "y" }] })] },
      /questions\.0\.options\.0\.description/,
    ],
    [
      {
        questions: [
          q({
            options: [
              { label: "a", description: "x", colour: 1 },
              { label: "b", description: "y" },
            ],
          }),
        ],
      },
      /questions\.0\.options\.0/,
    ],
    [{ questions: [{ question: "x", header: "", options: [] }] }, /questions\.0\.multiSelect/],
    [{ questions: [q({ multiSelect: "yes" })] }, /questions\.0\.multiSelect/],
    [
      {
        questions: [
          q({
            options: [
              { label: "a", description: "x", value: "" },
              { label: "b", description: "y" },
            ],
          }),
        ],
      },
      /questions\.0\.options\.0\.value/,
    ],
    [
      {
        questions: [
          q({
            options: [
              { label: "a", description: "x", requires_text: "y" },
              { label: "b", description: "y" },
            ],
          }),
        ],
      },
      /questions\.0\.options\.0\.requires_text/,
    ],
    [{ questions: [q({ question: "" })] }, /questions\.0\.question/],
    [{ questions: [q({})], caller_id: "1" }, /caller_id|Unrecognized/],
  ];
  for (const [args, re] of cases) {
    const r = await e.client.callTool({ name: "ask_user", arguments: args });
    assert.equal(errorCode(r), "invalid_input", JSON.stringify(args));
    const msg = (r.structuredContent as { error: { message: string } }).error.message;
    assert.match(msg, re, msg);
  }
});

test("three hops to the owner: E asks, L and C escalate, the owner answers by REST, E's open call returns", async () => {
  const { e, l, c, token, goal } = await chain(server);
  const progress: number[] = [];
  const call = ask(e.client, { questions: [DB_Q], context: "We need durable storage." }, { progress });
  const qid = await inboxQid(l.client);
  const esc1 = sc(
    await l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "Not my call" } }),
  );
  assert.deepEqual(esc1, { ok: true, qid, new_holder: c.id });
  assert.equal(await inboxQid(c.client), qid);
  const esc2 = sc(
    await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "Owner decides" } }),
  );
  assert.deepEqual(esc2, { ok: true, qid, new_holder: null });
  const view = await ownerPending(server, token, qid);
  assert.equal(view.holder, "__user__");
  assert.deepEqual(
    view.hops.map((h) => [h.from, h.to, h.reason]),
    [
      [l.id, c.id, "Not my call"],
      [c.id, "__user__", "Owner decides"],
    ],
  );
  await until(() => progress.length >= 2, "two progress notifications while E waits");
  const answered = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: ["PostgreSQL"], text: null }],
  });
  assert.equal(answered.status, 200, JSON.stringify(answered.json));
  const result = sc<AskResult>(await call);
  assert.deepEqual(result, {
    answers: [{ selected_labels: ["PostgreSQL"], selected_values: ["pg"], text: null }],
    answer_text: "Database: PostgreSQL",
  });
  assert.ok(progress.length >= 2, `progress notifications while waiting (${progress.length})`);
  // The answer is also in E's inbox (at-least-once: a returned call is no proof the agent received it).
  const copy = (await inbox(e.client)).messages.filter((m) => m.kind === "question_answer");
  assert.equal(copy.length, 1);
  assert.match(copy[0]?.content ?? "", /Database: PostgreSQL/);
  const events = await rest(server, "GET", `/api/goals/${goal.goal_id}/events?limit=1000`, token);
  const names = (events.json.events as { event: string; data: { qid?: string } }[])
    .filter((x) => x.data.qid === qid)
    .map((x) => x.event);
  assert.deepEqual(
    names.filter((n) => n.startsWith("question_")),
    ["question_asked", "question_escalated", "question_escalated", "question_answered"],
  );
  const done = await rest(server, "GET", `/api/questions/${qid}`, token);
  assert.equal(done.json.status, "answered");
  assert.equal(done.json.answered_by, "__user__");
  // Answered questions cannot be answered again.
  const again = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: ["SQLite"], text: null }],
  });
  assert.equal(again.json.error?.code, "unknown_qid");
});

test("answer_question and escalate_question: every error code, then the leader answers", async () => {
  const { e, l, c } = await chain(server);
  const call = ask(e.client, {
    questions: [DB_Q, { question: "Why?", header: "", multiSelect: false, options: [] }],
  });
  const qid = await inboxQid(l.client);
  const good = [
    { selected_labels: ["Other store"], text: "FoundationDB" },
    { selected_labels: [], text: "Scale" },
  ];
  const callA = (client: Client, args: Record<string, unknown>) =>
    client.callTool({
      name: "answer_question",
      arguments: { qid, answers: good, reason: "I know", ...args },
    });
  const callE = (client: Client, args: Record<string, unknown>) =>
    client.callTool({ name: "escalate_question", arguments: { qid, reason: "up", ...args } });
  assert.equal(errorCode(await callA(l.client, { qid: "" })), "invalid_input");
  assert.equal(errorCode(await callA(l.client, { answers: [] })), "invalid_input");
  assert.equal(errorCode(await callA(l.client, { reason: "" })), "invalid_input");
  assert.equal(errorCode(await callA(l.client, { answers: [{ selected_labels: "x" }] })), "invalid_input");
  assert.equal(errorCode(await callA(l.client, { qid: "q_nope" })), "unknown_qid");
  assert.equal(errorCode(await callA(c.client, {})), "not_holder");
  assert.equal(errorCode(await callA(e.client, {})), "not_holder");
  assert.equal(errorCode(await callA(l.client, { answers: [good[0]] })), "answer_count_mismatch");
  const bad = await callA(l.client, { answers: [{ selected_labels: ["MySQL"], text: null }, good[1]] });
  assert.equal(errorCode(bad), "invalid_input");
  assert.match(
    (bad.structuredContent as { error: { message: string } }).error.message,
    /answers\[0\]\.selected_labels/,
  );
  const noText = await callA(l.client, {
    answers: [{ selected_labels: ["Other store"], text: null }, good[1]],
  });
  assert.match(
    (noText.structuredContent as { error: { message: string } }).error.message,
    /answers\[0\]\.text/,
  );
  assert.equal(errorCode(await callE(l.client, { reason: "" })), "invalid_input");
  assert.equal(errorCode(await callE(l.client, { qid: "" })), "invalid_input");
  assert.equal(errorCode(await callE(l.client, { qid: "q_nope" })), "unknown_qid");
  assert.equal(errorCode(await callE(c.client, {})), "not_holder");
  // A question of another goal is unknown here.
  const other = await chain(server);
  assert.equal(errorCode(await callA(other.l.client, {})), "unknown_qid");

  assert.deepEqual(sc(await callA(l.client, {})), { ok: true, qid });
  const result = sc<AskResult>(await call);
  assert.deepEqual(result.answers, [
    { selected_labels: ["Other store"], selected_values: ["Other store"], text: "FoundationDB" },
    { selected_labels: [], selected_values: [], text: "Scale" },
  ]);
  assert.equal(result.answer_text, "Database: Other store: FoundationDB\nScale");
  assert.equal(errorCode(await callA(l.client, {})), "unknown_qid");
  assert.equal(errorCode(await callE(l.client, {})), "stale");
});

test("an escalation that lost a race is stale; the coordinator's own question goes straight to the owner", async () => {
  const { e, l, c, token } = await chain(server);
  const call = ask(e.client, { questions: [DB_Q] });
  const qid = await inboxQid(l.client);
  const both = await Promise.all([
    l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "a" } }),
    l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "b" } }),
  ]);
  assert.deepEqual(both.map((r) => errorCode(r) ?? "ok").sort(), ["ok", "stale"]);
  // C holds it now; C answers as leader.
  await c.client.callTool({
    name: "answer_question",
    arguments: { qid, answers: [{ selected_labels: ["SQLite"], text: null }], reason: "small" },
  });
  assert.equal(sc<AskResult>(await call).answer_text, "Database: SQLite");

  const direct = ask(c.client, {
    questions: [{ question: "Ship Friday?", header: "Ship", multiSelect: false, options: [] }],
  });
  const pending = (await rest(server, "GET", "/api/questions?status=pending", token)).json
    .questions as QView[];
  let q = pending.find((x) => x.origin === "agent");
  for (let i = 0; !q && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    q = ((await rest(server, "GET", "/api/questions?status=pending", token)).json.questions as QView[]).find(
      (x) => x.origin === "agent",
    );
  }
  assert.ok(q, "the coordinator's question is pending for the owner");
  assert.equal(q.holder, "__user__");
  assert.equal(q.hops.length, 0);
  const r = await rest(server, "POST", `/api/questions/${q.qid}/answer`, token, {
    answers: [{ selected_labels: [], text: "Yes" }],
  });
  assert.equal(r.status, 200);
  assert.equal(sc<AskResult>(await direct).answer_text, "Ship: Yes");
});

test("answer_text for every shape: single, multi, free text, Other, requires_text; empty headers unprefixed", async () => {
  const { c, token } = await chain(server);
  const questions = [
    {
      question: "Single?",
      header: "One",
      multiSelect: false,
      options: [
        { label: "A", description: "a" },
        { label: "B", description: "b" },
      ],
    },
    {
      question: "Multi?",
      header: "Many",
      multiSelect: true,
      options: [
        { label: "X", description: "x", value: "ex" },
        { label: "Y", description: "y" },
        { label: "Z", description: "z" },
      ],
    },
    { question: "Free?", header: "", multiSelect: false, options: [] },
    {
      question: "Other?",
      header: "Alt",
      multiSelect: false,
      options: [
        { label: "A", description: "a" },
        { label: "B", description: "b" },
      ],
    },
  ];
  const call = ask(c.client, { questions });
  let qid: string | undefined;
  for (let i = 0; !qid && i < 50; i++) {
    const list = (await rest(server, "GET", "/api/questions?status=pending", token)).json
      .questions as (QView & {
      questions: unknown[];
    })[];
    qid = list.find((x) => x.questions.length === 4)?.qid;
    if (!qid) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(qid);
  const multiOther = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [
      { selected_labels: ["A"], text: null },
      { selected_labels: [], text: "W" },
      { selected_labels: [], text: "free words" },
      { selected_labels: [], text: "my own" },
    ],
  });
  assert.equal(multiOther.json.error?.code, "invalid_input", "multi-select has no Other path");
  const twoOnSingle = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [
      { selected_labels: ["A", "B"], text: null },
      { selected_labels: ["X"] },
      { text: "f" },
      { text: "o" },
    ],
  });
  assert.equal(twoOnSingle.json.error?.code, "invalid_input");
  const ok = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [
      { selected_labels: ["B"], text: null },
      { selected_labels: ["X", "Z"], text: null },
      { selected_labels: [], text: "free words" },
      { selected_labels: [], text: "my own" },
    ],
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const result = sc<AskResult>(await call);
  assert.equal(result.answer_text, "One: B\nMany: X, Z\nfree words\nAlt: my own");
  assert.deepEqual(result.answers[1]?.selected_values, ["ex", "Z"]);
});

test("declined by the owner: ask_user fails with user_declined and the reason", async () => {
  const { c, token } = await chain(server);
  const call = ask(c.client, {
    questions: [{ question: "Spend $10k?", header: "Budget", multiSelect: false, options: [] }],
  });
  let qid: string | undefined;
  for (let i = 0; !qid && i < 50; i++) {
    const list = (await rest(server, "GET", "/api/questions?status=pending", token)).json
      .questions as QView[];
    qid = list.find((x) => x.origin === "agent")?.qid;
    if (!qid) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(qid);
  const empty = await rest(server, "POST", `/api/questions/${qid}/decline`, token, { reason: " " });
  assert.equal(empty.json.error?.code, "invalid_input");
  const r = await rest(server, "POST", `/api/questions/${qid}/decline`, token, { reason: "Not now" });
  assert.equal(r.status, 200);
  const res = await call;
  assert.equal(errorCode(res), "user_declined");
  assert.equal(
    (res.structuredContent as { error: { details: { reason: string } } }).error.details.reason,
    "Not now",
  );
  const view = (await rest(server, "GET", `/api/questions/${qid}`, token)).json;
  assert.equal(view.status, "declined");
  assert.equal(view.decline_reason, "Not now");
});

test("answered while the asker was disconnected: the answer waits in its inbox; re-asking re-attaches", async () => {
  const { e, l } = await chain(server);
  const abort = new AbortController();
  const first = ask(e.client, { questions: [DB_Q] }, { signal: abort.signal });
  const qid = await inboxQid(l.client);
  // Re-asking the identical question while it is pending re-attaches: no second [INBOX QUESTION].
  const abort2 = new AbortController();
  const secondProgress: number[] = [];
  const second = ask(e.client, { questions: [DB_Q] }, { signal: abort2.signal, progress: secondProgress });
  // The re-ask has been handled once it waits (its first progress notification): count then.
  await until(() => secondProgress.length >= 1, "the re-asking call to wait");
  const lInbox = await inbox(l.client);
  assert.equal(lInbox.messages.filter((m) => m.kind === "question" && !m.content.includes(qid)).length, 0);
  const count = await db.read(({ db: d }) => d.question.count({ where: { askerId: Number(e.id) } }));
  assert.equal(count, 1, "one question, re-attached");
  abort.abort();
  abort2.abort();
  await assert.rejects(first);
  await assert.rejects(second);
  await new Promise((r) => setTimeout(r, 300));
  await l.client.callTool({
    name: "answer_question",
    arguments: { qid, answers: [{ selected_labels: ["SQLite"], text: null }], reason: "obvious" },
  });
  const mine = await inbox(e.client);
  const msg = mine.messages.find((m) => m.kind === "question_answer");
  assert.ok(msg, "the answer is in the asker's inbox");
  assert.equal(msg.from, "system");
  assert.match(msg.content, new RegExp(`qid=${qid}`));
  assert.match(msg.content, /Database: SQLite/);
});

test("identical questions asked concurrently become one question; every call returns its answer", async () => {
  const { e, l } = await chain(server);
  const progress = [[], [], []] as number[][];
  const calls = progress.map((p) =>
    ask(e.client, { questions: [{ ...DB_Q, question: "Concurrent?" }] }, { progress: p }),
  );
  const qid = await inboxQid(l.client);
  // Every call has been handled once it waits (its first progress notification): count then.
  await until(() => progress.every((p) => p.length >= 1), "all three calls to wait");
  const count = await db.read(({ db: d }) => d.question.count({ where: { askerId: Number(e.id) } }));
  assert.equal(count, 1);
  await l.client.callTool({
    name: "answer_question",
    arguments: { qid, answers: [{ selected_labels: ["SQLite"], text: null }], reason: "r" },
  });
  for (const c of await Promise.all(calls)) assert.equal(sc<AskResult>(c).answer_text, "Database: SQLite");
});

test("answers racing for one question: exactly one wins (REST and answer_question together)", async () => {
  const { e, l, c, token } = await chain(server);
  const call = ask(e.client, { questions: [DB_Q] });
  const qid = await inboxQid(l.client);
  await l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "up" } });
  await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "up" } });
  await ownerPending(server, token, qid);
  const labels = ["PostgreSQL", "SQLite", "PostgreSQL", "SQLite", "PostgreSQL", "SQLite"];
  const results = await Promise.all(
    labels.map((label) =>
      rest(server, "POST", `/api/questions/${qid}/answer`, token, {
        answers: [{ selected_labels: [label], text: null }],
      }),
    ),
  );
  const winners = results.filter((r) => r.status === 200);
  assert.equal(winners.length, 1, JSON.stringify(results.map((r) => [r.status, r.json])));
  for (const r of results.filter((x) => x.status !== 200)) assert.equal(r.json.error?.code, "unknown_qid");
  const winning = labels[results.indexOf(winners[0] as (typeof results)[number])];
  assert.equal(sc<AskResult>(await call).answers[0]?.selected_labels[0], winning);
  const answeredEvents = await db.read(({ db: d }) =>
    d.event.findMany({ where: { name: "question_answered" } }),
  );
  assert.equal(
    answeredEvents.filter((x) => (JSON.parse(x.dataJson) as { qid: string }).qid === qid).length,
    1,
  );

  // A leader's answer racing its own escalation: one of them wins, the other is refused.
  const call2 = ask(e.client, { questions: [{ ...DB_Q, question: "And the cache?" }] });
  const qid2 = await inboxQid(l.client);
  const [a, b] = await Promise.all([
    l.client.callTool({
      name: "answer_question",
      arguments: { qid: qid2, answers: [{ selected_labels: ["SQLite"], text: null }], reason: "r" },
    }),
    l.client.callTool({ name: "escalate_question", arguments: { qid: qid2, reason: "up" } }),
  ]);
  assert.equal([errorCode(a), errorCode(b)].filter((x) => x === undefined).length, 1);
  if (errorCode(a) === undefined) {
    assert.equal(errorCode(b), "stale");
    assert.equal(sc<AskResult>(await call2).answer_text, "Database: SQLite");
  } else {
    assert.equal(errorCode(a), "unknown_qid");
    await c.client.callTool({
      name: "answer_question",
      arguments: { qid: qid2, answers: [{ selected_labels: ["PostgreSQL"], text: null }], reason: "r" },
    });
    assert.equal(sc<AskResult>(await call2).answer_text, "Database: PostgreSQL");
  }
});

test("owner gateway: root review Approve completes the goal; Rework and watchdog answers reach the agents", async () => {
  const { escalateToOwner } = await import("@/lib/domain/owner-gateway");
  const { c, l, token, goal } = await chain(server);
  const goalId = goal.goal_id;
  await db.write((u) =>
    escalateToOwner(u, {
      kind: "root_review",
      goalId,
      agentId: Number(c.id),
      detail: "[REVIEW REQUIRED] v1 done",
    }),
  );
  const pending = async (origin: string) => {
    const list = (await rest(server, "GET", "/api/questions?status=pending", token)).json
      .questions as (QView & {
      goal_id: number;
      context: string;
    })[];
    return list.find((x) => x.origin === origin && x.goal_id === goalId);
  };
  const review = await pending("root_review");
  assert.ok(review);
  assert.equal(review.context, "[REVIEW REQUIRED] v1 done");
  // Rework requires its text.
  const noText = await rest(server, "POST", `/api/questions/${review.qid}/answer`, token, {
    answers: [{ selected_labels: ["Rework"] }],
  });
  assert.equal(noText.json.error?.code, "invalid_input");
  const rework = await rest(server, "POST", `/api/questions/${review.qid}/answer`, token, {
    answers: [{ selected_labels: ["Rework"], text: "add tests" }],
  });
  assert.equal(rework.status, 200);
  const cInbox = await inbox(c.client);
  assert.ok(
    cInbox.messages.some((m) => m.from === "__user__" && m.content === "rework: add tests"),
    JSON.stringify(cInbox),
  );

  // Watchdog escalation about an idle agent: one card with one-click actions (issue 16 §7); Nudge them
  // again reaches the idle agent itself.
  await db.write((u) =>
    escalateToOwner(u, {
      kind: "idle_escalation",
      goalId,
      agentId: Number(l.id),
      leaderId: Number(c.id),
      text: "Agent lead has been idle for 6 minutes. What should happen?",
    }),
  );
  const idle = await pending("idle_escalation");
  assert.ok(idle);
  const nudged = await rest(server, "POST", `/api/questions/${idle.qid}/answer`, token, {
    answers: [{ selected_labels: ["Nudge them again"] }],
  });
  assert.equal(nudged.status, 200, JSON.stringify(nudged.json));
  const lInbox = await inbox(l.client);
  assert.ok(
    lInbox.messages.some((m) => m.content.includes("The owner asks you to carry on")),
    JSON.stringify(lInbox),
  );

  await db.write((u) =>
    escalateToOwner(u, {
      kind: "root_review",
      goalId,
      agentId: Number(c.id),
      detail: "[REVIEW REQUIRED] v2",
    }),
  );
  const review2 = await pending("root_review");
  assert.ok(review2);
  const approve = await rest(server, "POST", `/api/questions/${review2.qid}/answer`, token, {
    answers: [{ selected_labels: ["Approve"] }],
  });
  assert.equal(approve.status, 200);
  const g = await db.read(({ db: d }) => d.goal.findUnique({ where: { id: goalId } }));
  assert.equal(g?.status, "completed");
  const coord = await db.read(({ db: d }) => d.agent.findUnique({ where: { id: Number(c.id) } }));
  assert.equal(coord?.status, "terminated");
  const term = await db.read(({ db: d }) =>
    d.message.findFirst({ where: { recipientAgentId: Number(c.id), kind: "terminate" } }),
  );
  assert.ok(term);
  const events = await db.read(({ db: d }) =>
    d.event.findMany({ where: { goalId, name: "goal_completed" } }),
  );
  assert.equal(events.length, 1);
});

test("the owner's message to an agent arrives from __user__", async () => {
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  const { e } = await chain(server);
  const ownerId = (await db.read(({ db: d }) => d.user.findFirst({ where: { email: "owner@example.com" } })))
    ?.id;
  assert.ok(ownerId);
  await sendOwnerMessage(ownerId, { agentId: Number(e.id), content: "Prefer PostgreSQL." });
  const m = (await inbox(e.client)).messages.at(-1);
  assert.equal(m?.from, "__user__");
  assert.equal(m?.content, "Prefer PostgreSQL.");
  const intruder = await server.ownerToken("intruder2@example.com");
  assert.ok(intruder);
  const otherId = (
    await db.read(({ db: d }) => d.user.findFirst({ where: { email: "intruder2@example.com" } }))
  )?.id;
  await assert.rejects(
    sendOwnerMessage(otherId as number, { agentId: Number(e.id), content: "hi" }),
    /not found/,
  );
});
