// Issue 17 over the production server: the notification outbox is durable. A notification recorded while
// no worker runs is delivered after a crash and restart; a send cut off by a crash (the endpoint never
// answered, the server was killed) is sent again after the restart with the same webhook-id.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ask, DB_Q, rest } from "../helpers/questions";
import { type Receiver, startReceiver } from "../helpers/receiver";
import { goalWithAgents, startServer, type TestServer } from "../helpers/server";
import { eventually } from "../helpers/teams";

let server: TestServer;
const receivers: Receiver[] = [];
before(async () => {
  server = await startServer({
    env: {
      SWITCHBOARD_NOTIFY: "0",
      SWITCHBOARD_NOTIFY_ALLOW_PRIVATE: "1",
      SWITCHBOARD_NOTIFY_TICK_MS: "200",
      SWITCHBOARD_NOTIFY_BATCH_S: "0",
      SWITCHBOARD_NOTIFY_TIMEOUT_MS: "2000",
      SWITCHBOARD_NOTIFY_RETRY_S: "1,1,1",
      SWITCHBOARD_PROGRESS_EVERY_S: "0.5",
    },
  });
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
