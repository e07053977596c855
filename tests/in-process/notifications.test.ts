// Issue 17: owner-facing events reach webhooks, Slack and email, batched, with retries, a delivery log,
// replay, signed single-use action links and Slack's interactive callback. Real parts: MCP clients ask the
// questions, a local HTTP receiver verifies Standard Webhooks signatures and fails the first attempts, a
// local SMTP server (smtp-server) captures the mail. The worker's passes are driven by the test
// (drainNotifications) so that retries and batching windows are observed, not slept through.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { SMTPServer } from "smtp-server";
import { type InProcess, sc, startInProcess } from "../helpers/in-process";
import { ask, DB_Q, type QView, rest } from "../helpers/questions";
import { type Receiver, startReceiver } from "../helpers/receiver";
import { goalWithAgents } from "../helpers/server";
import { eventually } from "../helpers/teams";

let h: InProcess;
let jobs: typeof import("@/lib/jobs/notifications");
const receivers: Receiver[] = [];
before(async () => {
  h = await startInProcess({
    env: {
      SWITCHBOARD_PROGRESS_EVERY_S: "0.5",
      SWITCHBOARD_NOTIFY_ALLOW_PRIVATE: "1",
      SWITCHBOARD_NOTIFY_RETRY_S: "0.1,0.1,0.1",
      SWITCHBOARD_NOTIFY_BATCH_S: "0",
      SWITCHBOARD_NOTIFY_TIMEOUT_MS: "2000",
      SWITCHBOARD_URL: "http://switchboard.test",
    },
  });
  jobs = await import("@/lib/jobs/notifications");
});
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await h?.stop();
});

async function receiver(opts: { failFirst?: number } = {}) {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

/** Run worker passes (real clock) until `ok()` holds. */
async function pump<T>(
  ok: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  return eventually(
    async () => {
      await jobs.drainNotifications();
      return ok();
    },
    15_000,
    what,
  );
}

type Delivery = {
  id: number;
  msg_id: string;
  status: string;
  attempts: number;
  test: boolean;
  channel: { id: number; name: string } | null;
  notifications: { id: number; kind: string; summary: string }[];
  log: { ok: boolean; http_status: number | null; error: string | null }[];
};
type Item = {
  kind: string;
  summary: string;
  link: string;
  goal_id: number;
  waiting: { agent_id: number } | null;
  question?: { qid: string; questions: { options: { label: string; action_url: string | null }[] }[] };
};

const deliveries = async (token: string) =>
  (await rest(h, "GET", "/api/notification-deliveries", token)).json.deliveries as Delivery[];

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

test("webhook: signed per Standard Webhooks, retried with the same id after failures, logged, replayed; links answer once", async () => {
  const email = "hooks@example.com";
  const token = await h.ownerToken(email);
  const recv = await receiver({ failFirst: 2 });
  const created = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "ops hook",
    url: `${recv.url}/hook`,
  });
  assert.equal(created.status, 201);
  const secret = created.json.signing_secret as string;
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
  recv.secret = secret;
  // The secret is shown once: the list and the channel carry none.
  const listed = await rest(h, "GET", "/api/notification-channels", token);
  assert.ok(!JSON.stringify(listed.json).includes(secret.slice(6)));

  const g = await goalWithAgents(h, 0, email);
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const asking = ask(coordinator.client, { questions: [DB_Q] });
  asking.catch(() => {});

  const ok = await pump(() => recv.accepted()[0], "a delivered webhook");
  // Two 500s, then the 2xx: three requests with one webhook-id, each signed afresh.
  assert.equal(recv.received.length, 3);
  assert.deepEqual(
    recv.received.map((r) => r.status),
    [500, 500, 200],
  );
  assert.ok(recv.received.every((r) => r.verified === true));
  assert.equal(new Set(recv.received.map((r) => r.headers["webhook-id"])).size, 1);
  assert.match(String(ok.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/=]+$/);
  assert.equal(ok.json.type, "notification.question");
  const data = ok.json.data as { goal_id: number; notifications: Item[] };
  assert.equal(data.goal_id, g.goal.goal_id);
  const item = data.notifications[0];
  assert.ok(item?.question);
  assert.equal(item.kind, "question");
  assert.equal(item.summary, DB_Q.question);
  assert.equal(item.waiting?.agent_id, Number(coordinator.id));
  assert.equal(
    item.link,
    `http://switchboard.test/questions?qid=${item.question.qid}#question-${item.question.qid}`,
  );
  const options = item.question.questions[0]?.options ?? [];
  assert.deepEqual(
    options.map((o) => [o.label, Boolean(o.action_url)]),
    [
      ["PostgreSQL", true],
      ["SQLite", true],
      ["Other store", false], // needs a text: only in the app
    ],
  );

  // The delivery log: three attempts, two failed with their status.
  const [d] = await deliveries(token);
  assert.equal(d?.status, "delivered");
  assert.equal(d?.attempts, 3);
  assert.deepEqual(
    d?.log.map((a) => [a.ok, a.http_status]),
    [
      [false, 500],
      [false, 500],
      [true, 200],
    ],
  );

  // The link answers through the owner's own operation, once.
  const pg = options[0]?.action_url as string;
  const sqlite = options[1]?.action_url as string;
  const used = await h.fetch(`/api/notifications/actions/${tokenOf(pg)}`, { method: "POST" });
  assert.equal(used.status, 200);
  assert.equal(((await used.json()) as { outcome: string }).outcome, "done");
  const answered = sc<{ answers: { selected_labels: string[] }[] }>(await asking);
  assert.deepEqual(answered.answers[0]?.selected_labels, ["PostgreSQL"]);
  const again = await h.fetch(`/api/notifications/actions/${tokenOf(pg)}`, { method: "POST" });
  assert.equal(((await again.json()) as { outcome: string }).outcome, "reused");
  const other = await h.fetch(`/api/notifications/actions/${tokenOf(sqlite)}`, { method: "POST" });
  assert.equal(((await other.json()) as { outcome: string }).outcome, "already");
  const forged = `${tokenOf(sqlite).split(".")[0]}.AAAA`;
  assert.equal(
    (
      (await (await h.fetch(`/api/notifications/actions/${forged}`, { method: "POST" })).json()) as {
        outcome: string;
      }
    ).outcome,
    "invalid",
  );
  const q = (await rest(h, "GET", `/api/questions/${item.question.qid}`, token)).json as unknown as QView;
  assert.equal(q.status, "answered");

  // Replay: the same message (same webhook-id) again, logged as its own delivery.
  const replay = await rest(h, "POST", `/api/notification-deliveries/${d?.id}/replay`, token);
  assert.equal(replay.status, 202);
  await pump(() => recv.accepted().length === 2, "the replayed webhook");
  assert.equal(recv.accepted()[1]?.headers["webhook-id"], ok.headers["webhook-id"]);
  const log = await deliveries(token);
  assert.equal(log[0]?.status, "delivered");
  assert.equal(log.length, 2);

  // The test message.
  const t = await rest(h, "POST", `/api/notification-channels/${created.json.id}/test`, token);
  assert.equal(t.json.ok, true);
  assert.equal(recv.accepted().at(-1)?.json.type, "notification.test");
});

test("a channel failing every retry is disabled and its owner told on their other channels", async () => {
  const email = "disabled@example.com";
  const token = await h.ownerToken(email);
  const bad = await receiver({ failFirst: 1000 });
  const good = await receiver();
  const a = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "bad",
    url: bad.url,
  });
  const b = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "good",
    url: good.url,
  });
  good.secret = b.json.signing_secret as string;
  const g = await goalWithAgents(h, 0, email);
  ask(g.agents[0]?.client as never, { questions: [{ ...DB_Q, question: "Disable me?" }] }).catch(() => {});

  const told = await pump(
    () => good.accepted().find((r) => r.json.type === "notification.channel_disabled"),
    "the channel_disabled notification",
  );
  assert.equal(bad.received.length, 4); // the first attempt and three retries
  const ch = (await rest(h, "GET", `/api/notification-channels/${a.json.id}`, token)).json;
  assert.equal(ch.enabled, false);
  assert.match(String(ch.disabled_reason), /HTTP 500/);
  const item = (told.json.data as { notifications: Item[] }).notifications[0];
  assert.match(item?.summary ?? "", /"bad" was disabled/);
  // Re-enabled by the owner, it is used again.
  const re = await rest(h, "PATCH", `/api/notification-channels/${a.json.id}`, token, { enabled: true });
  assert.equal(re.json.enabled, true);
  assert.equal(re.json.disabled_reason, null);
});

test("batching: thirty agents asking at once make one message, then one digest per window", async () => {
  const email = "batch@example.com";
  const token = await h.ownerToken(email);
  const recv = await receiver();
  const c = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "b",
    url: recv.url,
  });
  recv.secret = c.json.signing_secret as string;
  const s = await rest(h, "PUT", "/api/notification-settings", token, { batch_seconds: 60 });
  assert.equal(s.json.batch_seconds, 60);
  const g = await goalWithAgents(h, 30, email);
  const asks = g.agents
    .slice(1)
    .map((a, i) => ask(a.client, { questions: [{ ...DB_Q, question: `Pick ${i}?` }] }));
  for (const p of asks) p.catch(() => {});
  // Their leader, the coordinator, passes all thirty up to the owner at once.
  const held = await eventually(
    async () => {
      const r = (await rest(h, "GET", "/api/questions?status=in_chain", token)).json.questions as QView[];
      return r.length === 30 && r;
    },
    20_000,
    "30 questions held by the coordinator",
  );
  const coordinator = g.agents[0]
    ?.client as never as import("@modelcontextprotocol/sdk/client/index.js").Client;
  const escalate = (q: QView) =>
    coordinator.callTool({ name: "escalate_question", arguments: { qid: q.qid, reason: "Owner" } });
  const notes = async () =>
    (
      (await rest(h, "GET", "/api/notifications?limit=100", token)).json.notifications as { kind: string }[]
    ).filter((n) => n.kind === "question").length;
  // The first reaches the owner alone and is sent at once.
  const t0 = Date.now();
  await escalate(held[0] as QView);
  await jobs.drainNotifications(() => new Date(t0));
  assert.equal(recv.accepted().length, 1);
  // The other twenty-nine at once: folded into one message, held until the window ends.
  await Promise.all(held.slice(1).map(escalate));
  await eventually(async () => (await notes()) === 30, 20_000, "30 notifications");
  await jobs.drainNotifications(() => new Date(t0 + 1_000));
  await jobs.drainNotifications(() => new Date(t0 + 30_000));
  assert.equal(recv.accepted().length, 1, "one message inside the first window");
  await jobs.drainNotifications(() => new Date(t0 + 61_000));
  assert.equal(recv.accepted().length, 2, "the rest as one digest when the window ends");
  const counts = recv.accepted().map((r) => (r.json.data as { count: number }).count);
  assert.deepEqual(counts, [1, 29]);
  assert.equal(recv.accepted()[0]?.json.type, "notification.question");
  assert.equal(recv.accepted()[1]?.json.type, "notification.digest");
  assert.ok(recv.accepted().every((r) => r.verified));
});

test("settings: muted goals and unchosen kinds send nothing", async () => {
  const email = "mute@example.com";
  const token = await h.ownerToken(email);
  const recv = await receiver();
  await rest(h, "POST", "/api/notification-channels", token, { kind: "webhook", name: "m", url: recv.url });
  const g = await goalWithAgents(h, 1, email);
  const put = await rest(h, "PUT", "/api/notification-settings", token, {
    goal_id: g.goal.goal_id,
    muted: true,
  });
  assert.equal(put.json.muted, true);
  ask(g.agents[0]?.client as never, { questions: [{ ...DB_Q, question: "Muted?" }] }).catch(() => {});
  await eventually(
    async () =>
      ((await rest(h, "GET", "/api/notifications", token)).json.notifications as unknown[]).length === 1,
    10_000,
    "the notification",
  );
  await jobs.drainNotifications();
  assert.equal(recv.received.length, 0);
  // Another owner cannot set this goal's settings (not_found), nor see the channel.
  const stranger = await h.ownerToken("stranger@example.com");
  const denied = await rest(h, "PUT", "/api/notification-settings", stranger, {
    goal_id: g.goal.goal_id,
    muted: false,
  });
  assert.equal(denied.json.error?.code, "not_found");
  assert.deepEqual((await rest(h, "GET", "/api/notification-channels", stranger)).json.channels, []);
  const [mine] = (await rest(h, "GET", "/api/notification-channels", token)).json.channels as {
    id: number;
  }[];
  assert.ok(mine);
  assert.equal((await rest(h, "DELETE", `/api/notification-channels/${mine.id}`, stranger)).status, 404);
  assert.equal((await rest(h, "DELETE", `/api/notification-channels/${mine.id}`, token)).status, 200);
  assert.equal((await rest(h, "GET", `/api/notification-channels/${mine.id}`, token)).status, 404);
  // A bad body is invalid_input, naming the field.
  const bad = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "x",
    url: "ftp://x",
  });
  assert.equal(bad.status, 422);
  assert.equal(bad.json.error?.code, "invalid_input");
});

test("slack: Block Kit with buttons; the interactive callback answers when signed and is refused when forged", async () => {
  const { slackSignature } = await import("@/lib/domain/notifications/slack-interactive");
  const email = "slack@example.com";
  const token = await h.ownerToken(email);
  const slack = await receiver();
  const signing = "8f742231b10e8888abcd99yyyzzz85a5";
  const c = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "slack",
    name: "team slack",
    webhook_url: `${slack.url}/services/T000/B000/XXXX`,
    signing_secret: signing,
  });
  assert.equal(c.status, 201);
  assert.equal(
    c.json.slack_interactive_url,
    `http://switchboard.test/api/notifications/slack/${c.json.id}/interactive`,
  );
  assert.ok(!JSON.stringify(c.json).includes(signing));
  const g = await goalWithAgents(h, 0, email);
  const asking = ask(g.agents[0]?.client as never, { questions: [{ ...DB_Q, question: "Slack me?" }] });
  asking.catch(() => {});
  const msg = await pump(() => slack.accepted()[0], "the Slack message");
  type Block = {
    type: string;
    block_id?: string;
    text?: { text: string };
    elements?: Record<string, unknown>[];
  };
  const blocks = msg.json.blocks as Block[];
  assert.equal(typeof msg.json.text, "string");
  assert.equal(blocks[0]?.type, "header");
  assert.match(blocks[0]?.text?.text ?? "", /^Question · Goal /);
  assert.equal(blocks[1]?.type, "section");
  assert.match(blocks[1]?.text?.text ?? "", /Slack me\?/);
  const actions = blocks.find((b) => b.type === "actions");
  const buttons = actions?.elements ?? [];
  assert.deepEqual(
    buttons.map((b) => (b.text as { text: string }).text),
    ["PostgreSQL", "SQLite", "Answer in Switchboard"],
  );
  assert.ok(buttons.every((b) => b.type === "button"));
  assert.ok(
    typeof buttons[1]?.value === "string" && !buttons[1]?.url,
    "an interactive button carries a token",
  );
  assert.match(String(buttons[2]?.url), /^http:\/\/switchboard\.test\/questions\?qid=/);

  const callback = (
    sig: (ts: string, body: string) => string,
    ts = String(Math.floor(Date.now() / 1000)),
  ) => {
    const payload = {
      type: "block_actions",
      user: { id: "U1", username: "alice" },
      actions: [{ action_id: buttons[1]?.action_id, block_id: actions?.block_id, value: buttons[1]?.value }],
      response_url: `${slack.url}/response`,
      message: { blocks },
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return h.fetch(`/api/notifications/slack/${c.json.id}/interactive`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": ts,
        "x-slack-signature": sig(ts, body),
      },
      body,
    });
  };
  const forged = await callback((ts, body) => slackSignature("not-the-secret-at-all", ts, body));
  assert.equal(forged.status, 401);
  const stale = await callback(
    (ts, body) => slackSignature(signing, ts, body),
    String(Math.floor(Date.now() / 1000) - 600),
  );
  assert.equal(stale.status, 401);
  const pending = (await rest(h, "GET", "/api/questions?status=pending", token)).json.questions as QView[];
  assert.equal(pending.length, 1, "the forged and the stale callbacks answered nothing");
  const good = await callback((ts, body) => slackSignature(signing, ts, body));
  assert.equal(good.status, 200);
  const answered = sc<{ answers: { selected_labels: string[] }[] }>(await asking);
  assert.deepEqual(answered.answers[0]?.selected_labels, ["SQLite"]);
  // The Slack message is updated through response_url with who answered.
  const update = await eventually(
    async () => slack.received.find((r) => r.path === "/response"),
    10_000,
    "response_url",
  );
  assert.equal(update.json.replace_original, true);
  assert.match(JSON.stringify(update.json.blocks), /alice\* answered \*SQLite/);
  // A second click: told it was already used, nothing changes.
  const twice = await callback((ts, body) => slackSignature(signing, ts, body));
  assert.equal(twice.status, 200);
  await eventually(
    async () => slack.received.filter((r) => r.path === "/response").length === 2,
    10_000,
    "the second response",
  );
  assert.equal(slack.received.filter((r) => r.path === "/response")[1]?.json.response_type, "ephemeral");
});

test("email: nodemailer to a local SMTP server, plain and HTML with the options as links", async () => {
  const mails: { from: string; to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
    onData: (stream, session, cb) => {
      let raw = "";
      stream.on("data", (c: Buffer) => {
        raw += c.toString("utf8");
      });
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, "127.0.0.1", ok));
  try {
    const port = (smtp.server.address() as AddressInfo).port;
    const email = "mail@example.com";
    const token = await h.ownerToken(email);
    const c = await rest(h, "POST", "/api/notification-channels", token, {
      kind: "email",
      name: "my mail",
      host: "127.0.0.1",
      port,
      user: "switchboard",
      password: "smtp-password-1",
      from: "switchboard@example.com",
      to: "owner@example.com",
    });
    assert.equal(c.status, 201);
    assert.ok(!JSON.stringify(c.json).includes("smtp-password-1"));
    const g = await goalWithAgents(h, 0, email);
    ask(g.agents[0]?.client as never, { questions: [{ ...DB_Q, question: "Mail me?" }] }).catch(() => {});
    const mail = await pump(() => mails[0], "the mail");
    assert.equal(mail.from, "switchboard@example.com");
    assert.deepEqual(mail.to, ["owner@example.com"]);
    const split = mail.raw.indexOf("\r\n\r\n");
    const head = mail.raw.slice(0, split);
    // The body, quoted-printable decoded.
    const flat = Buffer.from(
      mail.raw
        .slice(split)
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_m, x: string) => String.fromCharCode(Number.parseInt(x, 16))),
      "latin1",
    ).toString("utf8");
    assert.match(head, /Subject: =\?UTF-8\?Q\?=5BSwitchboard=5D_Question/);
    assert.match(flat, /Content-Type: text\/plain/);
    assert.match(flat, /<a href="http:\/\/switchboard\.test\/n\/[^"]+">PostgreSQL<\/a>/);
    assert.match(flat, /Content-Type: text\/html/);
    assert.match(flat, /PostgreSQL.*http:\/\/switchboard\.test\/n\//);
    assert.match(flat, /Answer in Switchboard: http:\/\/switchboard\.test\/questions\?qid=/);
    const [d] = await deliveries(token);
    assert.equal(d?.status, "delivered");
  } finally {
    await new Promise<void>((ok) => smtp.close(() => ok()));
  }
});

test("approvals, secret requests and budget alerts become notifications; an approve link decides the proposal", async () => {
  const db = await import("@/lib/db");
  const email = "kinds@example.com";
  const token = await h.ownerToken(email);
  const recv = await receiver();
  const ch = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "k",
    url: recv.url,
  });
  recv.secret = ch.json.signing_secret as string;
  const g = await goalWithAgents(h, 1, email);
  const [c, a] = g.agents;
  assert.ok(c && a);
  const items = () =>
    recv.accepted().flatMap((r) => (r.json.data as { notifications: Item[] }).notifications) as (Item & {
      proposal?: { proposal_message_id: number; approve_url: string | null };
    })[];

  // A task tree awaiting approval, with an approve link bound to its content.
  const p = sc<{ proposal_message_id: number }>(
    await c.client.callTool({
      name: "propose_task_tree",
      arguments: {
        goal_id: g.goal.goal_id,
        tree: { title: "Build it", description: "Build the whole thing, carefully." },
      },
    }),
  );
  const approval = await pump(() => items().find((i) => i.kind === "approval"), "the approval notification");
  assert.equal(approval.proposal?.proposal_message_id, p.proposal_message_id);
  assert.match(approval.link, /\/approvals$/);
  const approved = await h.fetch(
    `/api/notifications/actions/${tokenOf(approval.proposal?.approve_url ?? "")}`,
    {
      method: "POST",
    },
  );
  assert.equal(((await approved.json()) as { outcome: string }).outcome, "done");
  const goal = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: g.goal.goal_id } }));
  assert.equal(goal.status, "active");

  // A secret request.
  const task = await db.read((u) => u.db.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id } }));
  await a.client.callTool({
    name: "request_resource",
    arguments: {
      name: "STRIPE_API_KEY",
      resource_type: "api_key",
      reason: "Charges in tests",
      task_id: task.id,
    },
  });
  const secret = await pump(() => items().find((i) => i.kind === "secret_request"), "the secret request");
  assert.match(secret.summary, /STRIPE_API_KEY/);
  assert.equal(secret.waiting?.agent_id, Number(a.id));

  // The budget: 80 % once, then the pause at 100 %.
  await db.write((u) => u.db.goal.update({ where: { id: g.goal.goal_id }, data: { budgetCents: 100 } }));
  for (const [cents, k] of [
    [85, "u1"],
    [20, "u2"],
  ] as const) {
    await a.client.callTool({
      name: "report_usage",
      arguments: {
        model: "claude-sonnet-4-5",
        input_tokens: 1,
        output_tokens: 1,
        cost_cents: cents,
        idempotency_key: k,
      },
    });
  }
  const budget = await pump(
    () =>
      items().filter((i) => i.kind === "budget").length === 2 && items().filter((i) => i.kind === "budget"),
    "two budget notifications",
  );
  assert.match(budget[0]?.summary ?? "", /80|85/);
  assert.match(budget[1]?.summary ?? "", /paused/i);
});

test("secret key rotation re-encrypts channel secrets: the channel still signs with its secret", async () => {
  const token = await h.ownerToken("rotate@example.com");
  const recv = await receiver();
  const ch = await rest(h, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "r",
    url: recv.url,
  });
  recv.secret = ch.json.signing_secret as string;
  const { rotateSecretKey } = await import("@/lib/domain/secrets/rotate-key");
  await rotateSecretKey();
  const t = await rest(h, "POST", `/api/notification-channels/${ch.json.id}/test`, token);
  assert.equal(t.json.ok, true, JSON.stringify(t.json));
  assert.equal(recv.accepted()[0]?.verified, true);
});

test("the coordinator's review and a watchdog escalation reach the owner; Approve from a link completes the goal", async () => {
  const { write } = await import("@/lib/db");
  const { escalateToOwner } = await import("@/lib/domain/owner-gateway");
  const email = "review@example.com";
  const token = await h.ownerToken(email);
  const recv = await receiver();
  await rest(h, "POST", "/api/notification-channels", token, { kind: "webhook", name: "rv", url: recv.url });
  const g = await goalWithAgents(h, 1, email);
  const [c, a] = g.agents;
  assert.ok(c && a);
  const items = () =>
    recv.accepted().flatMap((r) => (r.json.data as { notifications: Item[] }).notifications);
  await write((u) =>
    escalateToOwner(u, {
      kind: "idle_escalation",
      goalId: g.goal.goal_id,
      agentId: Number(a.id),
      leaderId: Number(c.id),
      text: "agent-0 has been idle for 10 minutes.",
    }),
  );
  await write((u) =>
    escalateToOwner(u, {
      kind: "root_review",
      goalId: g.goal.goal_id,
      agentId: Number(c.id),
      detail: "All done.",
    }),
  );
  const review = await pump(() => items().find((i) => i.kind === "review"), "the review notification");
  const escalation = items().find((i) => i.kind === "escalation");
  assert.match(escalation?.summary ?? "", /idle for 10 minutes/);
  // Idle agents are one card per goal with one-click actions (issue 16 §7), each a link.
  assert.deepEqual(
    escalation?.question?.questions[0]?.options.map((o) => o.label),
    ["Nudge them again", "Restart them", "Terminate them", "Leave them"],
  );
  const approve = review.question?.questions[0]?.options.find((o) => o.label === "Approve");
  assert.ok(approve?.action_url);
  const r = await h.fetch(`/api/notifications/actions/${tokenOf(approve.action_url)}`, { method: "POST" });
  assert.equal(((await r.json()) as { outcome: string }).outcome, "done");
  const done = await pump(() => items().find((i) => i.kind === "goal_completed"), "goal_completed");
  assert.equal(done.goal_id, g.goal.goal_id);
});
