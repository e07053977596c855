// Messaging over HTTP where another process matters: delivery while the CLI writes to the same database.
// The rest of send_message, read_inbox and list_peers runs in process: tests/in-process/messaging.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { goalWithAgents, sc, startServer, type TestServer } from "../helpers/server";

type Inbox = {
  messages: { message_id: string; seq: number; from: string; content: string; kind: string }[];
  ack: number;
  more: boolean;
};

let server: TestServer;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_INBOX_CAP: "5", SWITCHBOARD_PROGRESS_EVERY_S: "0.2" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

test("concurrent senders up to the cap, with writes from another process: every message arrives once", async () => {
  const { agents } = await goalWithAgents(server, 3);
  const [, a, b, c] = agents;
  assert.ok(a && b && c);
  await server.cli("agent", "key", c.id); // unrelated write traffic from another process meanwhile
  const sent = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      (i % 2 ? a : b).client.callTool({ name: "send_message", arguments: { to: c.id, content: `c${i}` } }),
    ),
  );
  const sentIds = sent.map((r) => sc<{ message_id: string }>(r).message_id);
  const received: string[] = [];
  let ack: number | undefined;
  for (;;) {
    const inbox = sc<Inbox>(await c.client.callTool({ name: "read_inbox", arguments: { ack, limit: 3 } }));
    received.push(...inbox.messages.map((m) => m.message_id));
    if (inbox.messages.length === 0) break;
    ack = inbox.ack;
  }
  assert.deepEqual(new Set(received), new Set(sentIds));
  assert.equal(received.length, sentIds.length);
});
