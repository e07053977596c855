// Two app instances on one PostgreSQL database: a read_inbox waiting on one instance wakes when a
// message is written through the other (LISTEN/NOTIFY), well before the 1 s database re-check.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  goalWithAgents,
  mcpClient,
  providerUnderTest,
  sc,
  startServer,
  type TestServer,
} from "../helpers/server";

const postgres = providerUnderTest() === "postgres";
let one: TestServer;
let two: TestServer;
before(async () => {
  if (!postgres) return;
  one = await startServer();
  two = await startServer({ shareDatabaseWith: one });
});
after(async () => {
  await two?.stop();
  await one?.stop();
});

test("a waiter on instance one is woken by a write on instance two", {
  skip: !postgres && "PostgreSQL mode only",
}, async () => {
  const { agents } = await goalWithAgents(one, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const senderOnTwo = await mcpClient(two.url, a.key);
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const waiting: Promise<unknown> = b.client.callTool({
      name: "read_inbox",
      arguments: { wait_seconds: 10 },
    });
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    const sent: { message_id: string } = sc<{ message_id: string }>(
      await senderOnTwo.callTool({ name: "send_message", arguments: { to: b.id, content: `hop ${i}` } }),
    );
    const inbox: { messages: { message_id: string }[]; ack: number } = sc(await waiting);
    latencies.push(Date.now() - sentAt);
    assert.deepEqual(
      inbox.messages.map((m) => m.message_id),
      [sent.message_id],
    );
    await b.client.callTool({ name: "read_inbox", arguments: { ack: inbox.ack } });
  }
  latencies.sort((x, y) => x - y);
  assert.ok(
    (latencies[2] ?? Infinity) < 500,
    `median wake-up ${latencies[2]} ms is faster than the 1 s re-check`,
  );
});
