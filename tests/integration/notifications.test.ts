// Issue 17 over the production server: the notification outbox is durable. A notification recorded while
// no worker runs is delivered after a crash and restart; a send cut off by a crash (the endpoint never
// answered, the server was killed) is sent again after the restart with the same webhook-id. Slack's
// interactive callback through the production server: a forged signature acts on nothing, a signed one
// answers the question and the Slack message is updated.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { slackSignature } from "@/lib/domain/notifications/slack-interactive";
import { ask, DB_Q, type QView, rest } from "../helpers/questions";
import { type Receiver, startReceiver } from "../helpers/receiver";
import { goalWithAgents, providerUnderTest, startServer, type TestServer } from "../helpers/server";
import { eventually } from "../helpers/teams";

let server: TestServer;
const NOTIFY_ENV = {
  SWITCHBOARD_NOTIFY_ALLOW_PRIVATE: "1",
  SWITCHBOARD_NOTIFY_TICK_MS: "200",
  SWITCHBOARD_NOTIFY_BATCH_S: "0",
  SWITCHBOARD_NOTIFY_TIMEOUT_MS: "2000",
  SWITCHBOARD_NOTIFY_RETRY_S: "1,1,1",
  SWITCHBOARD_PROGRESS_EVERY_S: "0.5",
};
const receivers: Receiver[] = [];
before(async () => {
  server = await startServer({ env: { ...NOTIFY_ENV, SWITCHBOARD_NOTIFY: "0" } });
});
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.stop();
});

test("a crash between enqueue and delivery loses nothing; a send cut off by a crash is sent again", async () => {
  const token = await server.ownerToken();
  const recv = await startReceiver();
  receivers.push(recv);
  const ch = await rest(server, "POST", "/api/notification-channels", token, {
    kind: "webhook",
    name: "durable",
    url: `${recv.url}/a`,
  });
  assert.equal(ch.status, 201);
  recv.secret = ch.json.signing_secret as string;
  const g = await goalWithAgents(server, 0);
  const coordinator = g.agents[0]?.client;
  assert.ok(coordinator);
  ask(coordinator, { questions: [{ ...DB_Q, question: "Before the crash?" }] }).catch(() => {});
  await eventually(
    async () =>
      ((await rest(server, "GET", "/api/notifications", token)).json.notifications as unknown[]).length === 1,
    20_000,
    "the recorded notification",
  );
  assert.equal(recv.received.length, 0, "no worker runs yet");

  // Crash (SIGKILL) and start again, this time with the worker: the queued notification goes out.
  server.env.SWITCHBOARD_NOTIFY = "1";
  await server.restart();
  const first = await eventually(async () => recv.accepted()[0], 20_000, "the delivery after the restart");
  assert.equal(first.verified, true);
  assert.equal(
    (first.json.data as { notifications: { summary: string }[] }).notifications[0]?.summary,
    "Before the crash?",
  );

  // Now an endpoint that never answers the first request, and a crash while that send is in flight.
  const slow = await startReceiver({ hangFirst: 1 });
  receivers.push(slow);
  slow.secret = recv.secret;
  const patched = await rest(server, "PATCH", `/api/notification-channels/${ch.json.id}`, token, {
    url: `${slow.url}/b`,
  });
  assert.equal(patched.status, 200);
  ask(coordinator, { questions: [{ ...DB_Q, question: "During the crash?" }] }).catch(() => {});
  const hung = await eventually(async () => slow.received[0], 20_000, "the send in flight");
  assert.equal(hung.status, 0);
  await server.restart();
  const resent = await eventually(async () => slow.accepted()[0], 40_000, "the send again after the restart");
  assert.equal(resent.headers["webhook-id"], hung.headers["webhook-id"]);
  assert.equal(resent.verified, true);
  // The attempt is recorded once the 2xx is in (just after the receiver saw it).
  const log = await eventually(
    async () => {
      const d = (await rest(server, "GET", "/api/notification-deliveries", token)).json.deliveries as {
        status: string;
      }[];
      return d.every((x) => x.status === "delivered") && d;
    },
    10_000,
    "both deliveries recorded as delivered",
  );
  assert.equal(log.length, 2);
});

test("Slack interactivity over HTTP: forged refused, signed answers once and updates the message", async () => {
  if (server.env.SWITCHBOARD_NOTIFY === "0") {
    server.env.SWITCHBOARD_NOTIFY = "1"; // run alone: the first test did not restart it with the worker
    await server.restart();
  }
  const token = await server.ownerToken("slack-http@example.com");
  const slack = await startReceiver();
  receivers.push(slack);
  const signing = "slack-signing-secret-over-http";
  const ch = await rest(server, "POST", "/api/notification-channels", token, {
    kind: "slack",
    name: "slack",
    webhook_url: `${slack.url}/services/T/B/X`,
    signing_secret: signing,
  });
  assert.equal(ch.status, 201);
  const g = await goalWithAgents(server, 0, "slack-http@example.com");
  const coordinator = g.agents[0]?.client;
  assert.ok(coordinator);
  const asking = ask(coordinator, { questions: [{ ...DB_Q, question: "Over HTTP?" }] });
  asking.catch(() => {});
  const msg = await eventually(async () => slack.accepted()[0], 20_000, "the Slack message");
  type Block = { type: string; block_id?: string; elements?: { action_id: string; value?: string }[] };
  const blocks = msg.json.blocks as Block[];
  const actions = blocks.find((b) => b.type === "actions");
  const button = actions?.elements?.[0];
  assert.ok(button?.value);
  const post = (secret: string) => {
    const ts = String(Math.floor(Date.now() / 1000));
    const body = new URLSearchParams({
      payload: JSON.stringify({
        type: "block_actions",
        user: { id: "U1", username: "bob" },
        actions: [{ action_id: button.action_id, block_id: actions?.block_id, value: button.value }],
        response_url: `${slack.url}/response`,
        message: { blocks },
      }),
    }).toString();
    return fetch(`${server.url}/api/notifications/slack/${ch.json.id}/interactive`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": ts,
        "x-slack-signature": slackSignature(secret, ts, body),
      },
      body,
    });
  };
  assert.equal((await post("forged-secret-forged")).status, 401);
  const pending = (await rest(server, "GET", "/api/questions?status=pending", token)).json
    .questions as QView[];
  assert.equal(pending.length, 1);
  assert.equal((await post(signing)).status, 200);
  const answered = (await asking) as unknown as {
    structuredContent: { answers: { selected_labels: string[] }[] };
  };
  assert.deepEqual(answered.structuredContent.answers[0]?.selected_labels, ["PostgreSQL"]);
  const update = await eventually(
    async () => slack.received.find((r) => r.path === "/response"),
    10_000,
    "update",
  );
  assert.match(JSON.stringify(update.json.blocks), /bob\* answered \*PostgreSQL/);
});

test("two instances on one PostgreSQL database: each message goes out once", {
  skip: providerUnderTest() !== "postgres" && "PostgreSQL mode only",
}, async () => {
  if (server.env.SWITCHBOARD_NOTIFY === "0") {
    server.env.SWITCHBOARD_NOTIFY = "1";
    await server.restart();
  }
  const two = await startServer({
    shareDatabaseWith: server,
    env: { ...NOTIFY_ENV, SWITCHBOARD_NOTIFY: "1" },
  });
  try {
    const email = "two@example.com";
    const token = await server.ownerToken(email);
    const recv = await startReceiver();
    receivers.push(recv);
    const ch = await rest(server, "POST", "/api/notification-channels", token, {
      kind: "webhook",
      name: "2",
      url: recv.url,
    });
    recv.secret = ch.json.signing_secret as string;
    const g = await goalWithAgents(two, 3, email);
    // Three agents' questions, passed up by the coordinator through instance two.
    for (const [i, a] of g.agents.slice(1).entries()) {
      ask(a.client, { questions: [{ ...DB_Q, question: `Twice ${i}?` }] }).catch(() => {});
    }
    const held = await eventually(
      async () => {
        const r = (await rest(two, "GET", "/api/questions?status=in_chain", token)).json.questions as QView[];
        return r.length === 3 && r;
      },
      20_000,
      "three questions",
    );
    for (const q of held) {
      await g.agents[0]?.client.callTool({
        name: "escalate_question",
        arguments: { qid: q.qid, reason: "Owner" },
      });
    }
    await eventually(
      async () => recv.accepted().reduce((n, r) => n + (r.json.data as { count: number }).count, 0) === 3,
      20_000,
      "the three notifications",
    );
    await new Promise((r) => setTimeout(r, 1500)); // a second sender would have sent by now
    const ids = recv.accepted().map((r) => r.headers["webhook-id"]);
    assert.equal(new Set(ids).size, ids.length, "no message sent twice");
    assert.equal(
      recv.accepted().reduce((n, r) => n + (r.json.data as { count: number }).count, 0),
      3,
    );
  } finally {
    await two.stop();
  }
});
