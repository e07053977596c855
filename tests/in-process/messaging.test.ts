// send_message, read_inbox and list_peers through real MCP clients: every error code of the contract,
// at-least-once delivery, long-poll wake-ups, and the event log. In process (tests/helpers/in-process.ts);
// delivery with write traffic from another process is in tests/integration/messaging.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

type Inbox = {
  messages: { message_id: string; seq: number; from: string; content: string; kind: string }[];
  ack: number;
  more: boolean;
};

let server: InProcess;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startInProcess({ env: { SWITCHBOARD_INBOX_CAP: "5", SWITCHBOARD_PROGRESS_EVERY_S: "0.2" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? "";

test("a message sent to a peer arrives in its inbox with sender, kind and time", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const sent = sc<{ delivered: boolean; message_id: string }>(
    await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "ping" } }),
  );
  assert.equal(sent.delivered, true);
  assert.match(sent.message_id, /^[0-9a-f-]{36}$/);
  const inbox = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: {} }));
  assert.equal(inbox.messages.length, 1);
  assert.deepEqual(
    {
      id: inbox.messages[0]?.message_id,
      from: inbox.messages[0]?.from,
      content: inbox.messages[0]?.content,
      kind: inbox.messages[0]?.kind,
    },
    { id: sent.message_id, from: a.id, content: "ping", kind: "message" },
  );
});

test("unknown_recipient and task_mismatch; another owner's agent is answered as a missing one", async () => {
  const one = await goalWithAgents(server, 1, "owner-one@example.com");
  const two = await goalWithAgents(server, 1, "owner-one@example.com");
  const foreign = await goalWithAgents(server, 1, "owner-two@example.com");
  const a = one.agents[1];
  const stranger = two.agents[1];
  const tenant = foreign.agents[1];
  assert.ok(a && stranger && tenant);
  for (const to of ["999999", "not-an-id", ""]) {
    const r = await a.client.callTool({ name: "send_message", arguments: { to, content: "x" } });
    assert.equal(errorCode(r), to === "" ? "invalid_input" : "unknown_recipient", to);
  }
  const r = await a.client.callTool({ name: "send_message", arguments: { to: stranger.id, content: "x" } });
  assert.equal(errorCode(r), "task_mismatch");
  assert.match(text(r), /list_peers/);
  // Issue 16: an agent of another owner's goal must not be told apart from an id that does not exist.
  const missing = await a.client.callTool({
    name: "send_message",
    arguments: { to: "999999", content: "x" },
  });
  const probe = await a.client.callTool({ name: "send_message", arguments: { to: tenant.id, content: "x" } });
  assert.equal(errorCode(probe), "unknown_recipient");
  assert.equal(text(probe).replace(tenant.id, "ID"), text(missing).replace("999999", "ID"));
  for (const peer of [stranger, tenant]) {
    const inbox = sc<Inbox>(await peer.client.callTool({ name: "read_inbox", arguments: {} }));
    assert.equal(inbox.messages.length, 0);
  }
});

test("recipient_terminated once the recipient has consumed its terminate sentinel", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  // The terminate handshake arrives with the teams issue; here the flag is set as it will set it.
  await db.write(({ sql }) =>
    sql.run(`UPDATE "Agent" SET "terminateConsumed" = ? WHERE id = ?`, true, Number(b.id)),
  );
  const r = await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "x" } });
  assert.equal(errorCode(r), "recipient_terminated");
  assert.match(text(r), /escalate/);
});

test("inbox_full at the cap of pending messages; reading and acknowledging makes room", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  for (let i = 0; i < 5; i++) {
    const r = await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: `m${i}` } });
    assert.equal(errorCode(r), undefined);
  }
  const full = await a.client.callTool({
    name: "send_message",
    arguments: { to: b.id, content: "one too many" },
  });
  assert.equal(errorCode(full), "inbox_full");
  assert.deepEqual(sc<{ error: { details: unknown } }>(full).error.details, { to: b.id, cap: 5 });
  // Delivered but unacknowledged messages still count: nothing is dropped to make room.
  const first = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: { limit: 2 } }));
  assert.equal(
    errorCode(await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "x" } })),
    "inbox_full",
  );
  await b.client.callTool({ name: "read_inbox", arguments: { ack: first.ack, limit: 1 } });
  const ok = await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "room now" } });
  assert.equal(errorCode(ok), undefined);
});

test("at-least-once: unacknowledged messages are handed out again; ack consumes them and records agent_input", async () => {
  const { agents, goal, token } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const ids: string[] = [];
  for (const content of ["one", "two", "three"]) {
    ids.push(
      sc<{ message_id: string }>(
        await a.client.callTool({ name: "send_message", arguments: { to: b.id, content } }),
      ).message_id,
    );
  }
  const first = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: { limit: 2 } }));
  assert.deepEqual(
    first.messages.map((m) => m.content),
    ["one", "two"],
  );
  assert.equal(first.more, true);
  // The reply was "lost": reading again without ack hands the same messages out again.
  const again = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: { limit: 2 } }));
  assert.deepEqual(
    again.messages.map((m) => m.message_id),
    first.messages.map((m) => m.message_id),
  );
  const next = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: { ack: again.ack } }));
  assert.deepEqual(
    next.messages.map((m) => m.content),
    ["three"],
  );
  assert.equal(next.more, false);
  const done = sc<Inbox>(await b.client.callTool({ name: "read_inbox", arguments: { ack: next.ack } }));
  assert.deepEqual(done.messages, []);

  const res = await server.fetch(`/api/goals/${goal.goal_id}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { events } = (await res.json()) as {
    events: { event: string; seq: number; agent_id: number; data: { message_id?: string } }[];
  };
  const seqs = events.map((e) => e.seq);
  assert.deepEqual(
    seqs,
    [...seqs].sort((x, y) => x - y),
  );
  const sends = events.filter((e) => e.event === "send_message" && ids.includes(e.data.message_id ?? ""));
  const inputs = events.filter((e) => e.event === "agent_input");
  assert.equal(sends.length, 3);
  assert.deepEqual(
    inputs.map((e) => e.data.message_id),
    ids,
  );
  assert.ok(inputs.every((e) => String(e.agent_id) === b.id));
});

test("a waiting read_inbox returns as soon as a message arrives, with progress while it waits", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  const progress: number[] = [];
  let waitingNow!: () => void;
  const isWaiting = new Promise<void>((r) => {
    waitingNow = r;
  });
  const started = Date.now();
  const waiting = b.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 20 } }, undefined, {
    onprogress: (p) => {
      progress.push(p.progress);
      waitingNow();
    },
  });
  // Send once the read is known to be waiting (its first progress notification), not after a guessed delay.
  await isWaiting;
  await a.client.callTool({ name: "send_message", arguments: { to: b.id, content: "wake up" } });
  const inbox = sc<Inbox>(await waiting);
  assert.deepEqual(
    inbox.messages.map((m) => m.content),
    ["wake up"],
  );
  assert.ok(Date.now() - started < 5000, "returned long before wait_seconds");
  assert.ok(progress.length >= 1, "progress notifications were sent while waiting");
});

test("a wait with nothing arriving returns an empty inbox after wait_seconds", async () => {
  const { agents } = await goalWithAgents(server, 1);
  const started = Date.now();
  const inbox = sc<Inbox>(
    await agents[1]?.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 1 } }),
  );
  assert.deepEqual(inbox.messages, []);
  assert.ok(Date.now() - started >= 900);
});

test("list_peers: team = agents sharing my leader, children = my reports, all = the goal", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [coord, a, b] = agents;
  assert.ok(coord && a && b);
  const { goal_id } = sc<{ goal_id: number }>(await a.client.callTool({ name: "whoami", arguments: {} }));
  const sub = await server.createAgent({ goal: goal_id, name: "sub", leader: a.id });
  type Peers = {
    peers: {
      agent_id: string;
      role: string;
      team_id: string | null;
      status: string;
      is_leader_of: string[];
      name: string | null;
    }[];
  };
  const ids = (r: unknown) =>
    sc<Peers>(r)
      .peers.map((p) => p.agent_id)
      .sort();
  assert.deepEqual(ids(await a.client.callTool({ name: "list_peers", arguments: {} })), [b.id]);
  assert.deepEqual(ids(await a.client.callTool({ name: "list_peers", arguments: { scope: "children" } })), [
    String(sub.agent_id),
  ]);
  assert.deepEqual(
    ids(await coord.client.callTool({ name: "list_peers", arguments: { scope: "children" } })),
    [a.id, b.id].sort(),
  );
  const all = sc<Peers>(await b.client.callTool({ name: "list_peers", arguments: { scope: "all" } }));
  assert.deepEqual(
    all.peers.map((p) => p.agent_id).sort(),
    [coord.id, a.id, b.id, String(sub.agent_id)].sort(),
  );
  const peerA = all.peers.find((p) => p.agent_id === a.id);
  assert.deepEqual(peerA, {
    agent_id: a.id,
    role: "engineer",
    team_id: null,
    status: "active",
    is_leader_of: [],
    name: "agent-0",
  });
  assert.equal(
    errorCode(await a.client.callTool({ name: "list_peers", arguments: { scope: "everyone" } })),
    "invalid_input",
  );
});
