// The runner's inbox feeder (lib/runner/inbox-feeder.ts) over the real /mcp endpoint: each message a teammate
// sends becomes one delivery, in order, and the session's abort signal does not collect a listener per
// read_inbox call (the MCP SDK never removes the abort listener it adds to a request's signal: a long-lived
// session fed by the runner would otherwise leak one per call; 50 agents on one runner hit Node's
// MaxListenersExceededWarning within minutes).
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { after, before, test } from "node:test";
import { feedInbox } from "@/lib/runner/inbox-feeder";
import type { AgentSession, RuntimeEvent } from "@/lib/runner/runtimes/types";
import { sc, startServer, type TestServer } from "../helpers/server";
import { eventually, goalWithCoordinator } from "../helpers/teams";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("the feeder delivers each message as one turn, in order, without piling abort listeners on the session's signal", async () => {
  const { goal, coordinator } = await goalWithCoordinator(server);
  const worker = await server.createAgent({ goal: goal.goal_id, name: "fed", role: "engineer" });
  const delivered: string[] = [];
  const session: AgentSession = {
    fedByRunner: true,
    deliver: async (text) => {
      delivered.push(text);
      return { done: Promise.resolve() };
    },
    stop: async () => {},
    kill: () => {},
    events: (async function* (): AsyncGenerator<RuntimeEvent> {})(),
  };
  const stop = new AbortController();
  const feeding = feedInbox(
    { mcpUrl: new URL("/mcp", server.url).toString(), apiKey: worker.api_key, session, log: {} },
    stop.signal,
  );
  const listeners = () => getEventListeners(stop.signal, "abort").length;
  const counts: number[] = [];
  // One message at a time: each delivery is followed by a new read_inbox call (with the ack).
  for (let i = 0; i < 14; i++) {
    const sent = sc<{ delivered: boolean }>(
      await coordinator.client.callTool({
        name: "send_message",
        arguments: { to: String(worker.agent_id), content: `MSG-${i}` },
      }),
    );
    assert.equal(sent.delivered, true);
    await eventually(async () => delivered.length >= i + 1, 20_000, `message ${i} delivered`);
    counts.push(listeners());
  }
  assert.deepEqual(
    delivered.map((t) => t.match(/MSG-\d+/)?.[0]),
    Array.from({ length: 14 }, (_, i) => `MSG-${i}`),
  );
  // The connection's own listener and the call in flight at most: the count does not grow with calls.
  assert.ok(
    Math.max(...counts) <= 3,
    `abort listeners on the session signal per message: ${counts.join(" ")}`,
  );
  stop.abort();
  await feeding;
});
