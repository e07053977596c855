// Shared helpers of the teams tests: goals with a given depth, clients for spawned agents, inbox and event reads.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type Surface, sc } from "./server";

export type Agent = { id: string; client: Client };

export type InboxMsg = { message_id: string; seq: number; from: string; kind: string; content: string };

/** A goal (owner token, coordinator client) with the given max_spawn_depth. */
export async function goalWithCoordinator(server: Surface, maxDepth = 3, email?: string) {
  const token = await server.ownerToken(email);
  const owner = await server.client(token);
  const goal = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: {
        title: `Team goal ${Math.random().toString(36).slice(2, 8)}`,
        description: "Build the thing.",
        max_spawn_depth: maxDepth,
      },
    }),
  );
  const coordinator = await agentClient(server, String(goal.coordinator_agent_id));
  return { goal, token, owner, coordinator };
}

/** A connected client for an agent, with a new key issued as `switchboard agent key` does. */
export async function agentClient(server: Surface, id: string): Promise<Agent> {
  const key = await server.agentKey(id);
  return { id, client: await server.client(key) };
}

export async function call<T = Record<string, unknown>>(
  a: Agent,
  name: string,
  args: Record<string, unknown> = {},
) {
  return sc<T>(await a.client.callTool({ name, arguments: args }));
}

/** Read (and acknowledge) everything waiting in an agent's inbox. */
export async function drain(a: Agent, wait = 0): Promise<InboxMsg[]> {
  const r = sc<{ messages: InboxMsg[]; ack: number }>(
    await a.client.callTool({ name: "read_inbox", arguments: { wait_seconds: wait } }),
  );
  // Reading the terminate sentinel ends the agent: its key is refused from then on (agent_retired).
  if (r.messages.length && !r.messages.some((m) => m.kind === "terminate")) {
    await a.client.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
  }
  return r.messages;
}

export type EventRow = {
  seq: number;
  ts: string;
  event: string;
  agent_id: number | null;
  team_id: string | null;
  data: Record<string, unknown>;
};

/** The goal's event log through the REST API. */
export async function events(server: Surface, token: string, goalId: number): Promise<EventRow[]> {
  const out: EventRow[] = [];
  let after = 0;
  for (;;) {
    const r = await server.fetch(`/api/goals/${goalId}/events?after=${after}&limit=500`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await r.json()) as { events: EventRow[]; next_cursor: number | null };
    out.push(...body.events);
    if (!body.events.length || body.next_cursor === null) return out;
    after = body.next_cursor;
  }
}

export const task = (id: string, depends_on: string[] = [], skill = "engineer") => ({
  id,
  role: `${id} engineer`,
  skill,
  task: `Do task ${id}.`,
  depends_on,
});

/** Wait until `check` returns a value (polling), or fail after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 20_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
