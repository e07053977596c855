// Graceful shutdown on SIGTERM (issue 16 §5): open long-polls answer with what they have, a blocked ask_user
// answers `cancelled` (its question stays pending), the process exits 0 well within its 10 s bound, and
// every acknowledged write is there after the restart.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_PROGRESS_EVERY_S: "0.5" } });
});
after(() => server?.stop());

test("SIGTERM: waits end with a result the client understands, exit 0, nothing acknowledged is lost", async () => {
  const { agents, token } = await goalWithAgents(server, 2);
  const [c, a, b] = agents;
  assert.ok(c && a && b);
  const sent = sc<{ message_id: string }>(
    await b.client.callTool({
      name: "send_message",
      arguments: { to: c.id, content: "acknowledged before SIGTERM" },
    }),
  );
  const poll = a.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 50 } }, undefined, {
    timeout: 120_000,
  });
  const asked = b.client.callTool(
    {
      name: "ask_user",
      arguments: {
        questions: [{ question: "Ship on Friday?", header: "Ship", multiSelect: false, options: [] }],
      },
    },
    undefined,
    { timeout: 120_000 },
  );
  await new Promise((r) => setTimeout(r, 1500));
  const { code, ms } = await server.sigterm();
  assert.equal(code, 0);
  assert.ok(ms < 10_000, `exited in ${ms} ms`);
  const polled = await poll;
  assert.equal(errorCode(polled), undefined, JSON.stringify(polled));
  assert.deepEqual(sc<{ messages: unknown[] }>(polled).messages, []);
  const cut = await asked;
  assert.equal(errorCode(cut), "cancelled");

  await server.restart();
  const inbox = sc<{ messages: { message_id: string }[] }>(
    await (await server.client(c.key)).callTool({ name: "read_inbox", arguments: {} }),
  );
  assert.ok(
    inbox.messages.some((m) => m.message_id === sent.message_id),
    "the acknowledged message is there",
  );
  const pending = (await (
    await server.fetch("/api/questions?status=all", { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { questions: { status: string }[] };
  assert.ok(
    pending.questions.some((q) => q.status !== "answered"),
    "the question is still open",
  );
});
