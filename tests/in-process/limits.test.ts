// Limits per agent (issue 16): open blocking calls per key, open questions per agent, unread text per inbox.
// Per-second call rates and batch sizes are HTTP-level: tests/integration/mcp-endpoint.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { DB_Q } from "../helpers/questions";

let server: InProcess;
before(async () => {
  server = await startInProcess({
    env: {
      SWITCHBOARD_OPEN_WAITS_PER_KEY: "3",
      SWITCHBOARD_MAX_OPEN_QUESTIONS: "2",
      SWITCHBOARD_INBOX_MAX_BYTES: "1000",
      SWITCHBOARD_PROGRESS_EVERY_S: "0.2",
    },
  });
});
after(async () => {
  await server?.stop();
});

const details = (r: unknown) =>
  (r as { structuredContent: { error: { details: Record<string, unknown> } } }).structuredContent.error
    .details;

test("a key holds at most SWITCHBOARD_OPEN_WAITS_PER_KEY blocking calls; a freed slot can be used again", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const abort = new AbortController();
  const wait = () =>
    a.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 20 } }, undefined, {
      signal: abort.signal,
      timeout: 60_000,
    });
  const waiting = [wait(), wait(), wait()];
  await new Promise((r) => setTimeout(r, 300));
  const refused = await a.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 20 } });
  assert.equal(errorCode(refused), "rate_limited");
  assert.equal(details(refused).limit, "open_waits");
  // A non-blocking read is never limited by the slots.
  assert.equal(errorCode(await a.client.callTool({ name: "read_inbox", arguments: {} })), undefined);
  // A message wakes the waiters; their slots are free again.
  await b.client.callTool({ name: "send_message", arguments: { to: a.id, content: "wake up" } });
  const woken = await Promise.all(waiting);
  assert.ok(woken.every((r) => errorCode(r) === undefined));
  const again = await a.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 1 } });
  assert.equal(errorCode(again), undefined);
  abort.abort();
});

test("an agent has at most SWITCHBOARD_MAX_OPEN_QUESTIONS open questions; re-asking one re-attaches", async () => {
  const { agents } = await goalWithAgents(server, 1);
  const [, a] = agents;
  assert.ok(a);
  const abort = new AbortController();
  const q = (n: number) => ({ questions: [{ ...DB_Q, question: `Question number ${n}?` }] });
  const ask = (n: number) =>
    a.client
      .callTool({ name: "ask_user", arguments: q(n) }, undefined, { signal: abort.signal, timeout: 60_000 })
      .catch(() => undefined);
  void ask(1);
  void ask(2);
  await new Promise((r) => setTimeout(r, 500));
  const third = await a.client.callTool({ name: "ask_user", arguments: q(3) });
  assert.equal(errorCode(third), "too_many_questions");
  assert.equal(details(third).max, 2);
  abort.abort();
});

test("an inbox holds at most SWITCHBOARD_INBOX_MAX_BYTES of unread text: inbox_full, and nothing stored", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const send = (content: string) =>
    a.client.callTool({ name: "send_message", arguments: { to: b.id, content } });
  assert.equal(errorCode(await send("x".repeat(600))), undefined);
  const full = await send("y".repeat(600));
  assert.equal(errorCode(full), "inbox_full");
  assert.equal(details(full).max_bytes, 1000);
  const inbox = sc<{ messages: { content: string }[]; ack: number }>(
    await b.client.callTool({ name: "read_inbox", arguments: {} }),
  );
  assert.deepEqual(
    inbox.messages.map((m) => m.content.length),
    [600],
  );
  // Reading and acknowledging makes room.
  await b.client.callTool({ name: "read_inbox", arguments: { ack: inbox.ack } });
  assert.equal(errorCode(await send("y".repeat(600))), undefined);
});
