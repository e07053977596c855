// The owner's view of a runner-managed agent over HTTP (issue 11 §4, docs/runner.md "Transcripts" and
// "Stop, Restart, Terminate"): the transcript REST and SSE built from what a runner reports, owner scoping,
// secret values kept out of it, and Stop / Restart / Terminate against the protocol's answers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sc, startServer, type TestServer } from "../helpers/server";
import { eventually } from "../helpers/teams";

let server: TestServer;
let owner: Client;
let ownerToken: string;
let otherToken: string;
let db: typeof import("@/lib/db");
let tokens: typeof import("@/lib/domain/runner/tokens");
let skills: typeof import("@/lib/domain/skills/skills");
let runnerToken: string;

before(async () => {
  server = await startServer({ env: { SWITCHBOARD_RUNNER_LEASE_S: "30" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  tokens = await import("@/lib/domain/runner/tokens");
  skills = await import("@/lib/domain/skills/skills");
  ownerToken = await server.ownerToken();
  otherToken = await server.ownerToken("other@example.com");
  owner = await server.client(ownerToken);
  for (const name of ["coordinator", "engineer"]) {
    const s = await skills.getBuiltinSkill(name);
    await skills.saveBuiltinSkill({
      name,
      description: s.description,
      system_prompt: s.system_prompt,
      runtime: "command",
      command: { cmd: "true" },
    });
  }
  runnerToken = (await tokens.createRunnerToken({ name: "transcript" })).token;
});

after(async () => {
  await owner?.close().catch(() => {});
  await db?.disconnect();
  await server?.stop();
});

type Json = Record<string, unknown>;
async function call(token: string | undefined, method: string, url: string, body?: unknown) {
  const r = await server.fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as Json & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}
const runner = (url: string, body: Json) => call(runnerToken, "POST", url, body);

type Entry = { seq: number; event: string; data: Json; message?: { content: string; from: string } | null };
type Transcript = {
  agent: { agent_id: number; run_state: string | null; status: string };
  entries: Entry[];
  next_cursor: number;
  older_cursor: number | null;
};

async function goalWithLaunchedCoordinator(title: string) {
  const goal = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({ name: "create_goal", arguments: { title, description: "Transcript test goal." } }),
  );
  const polled = await runner("/api/runner/poll", { instance: "t1", runtimes: ["command"], agent_slots: 1 });
  const job = polled.json.job as { agent_id: number; launch: number } | null;
  assert.equal(job?.agent_id, goal.coordinator_agent_id, JSON.stringify(polled.json));
  const launch = job?.launch ?? 0;
  const ref = { instance: "t1", launch };
  const id = goal.coordinator_agent_id;
  assert.equal((await runner(`/api/runner/agents/${id}/state`, { ...ref, state: "running" })).status, 200);
  return { ...goal, ref, id };
}

const transcriptUrl = (goalId: number, agentId: number, q = "") =>
  `/api/goals/${goalId}/agents/${agentId}/transcript${q}`;

test("the transcript shows the delivered turn, what the agent said, its tool call with the result, denials and usage; other owners get 404", async () => {
  const g = await goalWithLaunchedCoordinator("Transcript goal");
  // The runner delivers the coordinator's first message (the goal) as a turn: the agent's own read_inbox.
  const key = (await runner(`/api/runner/agents/${g.id}/key`, g.ref)).json.api_key as string;
  const agent = await server.client(key);
  const inbox = sc<{ messages: { message_id: string }[]; ack: number }>(
    await agent.callTool({ name: "read_inbox", arguments: {} }),
  );
  assert.ok(inbox.messages.length >= 1);
  const goalMessage = inbox.messages[0]?.message_id ?? "";
  // The runtime took the message as its turn (`turn.input`), before anything the turn does; the ack follows
  // the turn. A turn.input naming a message that is not this agent's records nothing.
  const events = [
    { type: "turn.input", messageId: goalMessage },
    { type: "turn.input", messageId: "00000000-0000-4000-8000-000000000000" },
    { type: "assistant_text", text: "I will plan the work." },
    { type: "tool_called", toolUseId: "tu_1", name: "mcp__switchboard__declare_plan", input: { tasks: [] } },
    { type: "tool_result", toolUseId: "tu_1", isError: false, content: "plan declared" },
    { type: "tool_denied", name: "AskUserQuestion", reason: "ask_user_question.redirected" },
    {
      type: "turn.usage",
      model: "claude-sonnet-4-5",
      inputTokens: 1200,
      outputTokens: 80,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    { type: "assistant_text", text: "x".repeat(5000) },
  ];
  const rep = await runner(`/api/runner/agents/${g.id}/events`, { ...g.ref, events });
  assert.equal(rep.status, 200, JSON.stringify(rep.json));
  await agent.callTool({ name: "read_inbox", arguments: { ack: inbox.ack } });
  await agent.close();

  const t = await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id));
  assert.equal(t.status, 200, JSON.stringify(t.json));
  const body = t.json as unknown as Transcript;
  assert.equal(body.agent.agent_id, g.id);
  assert.equal(body.agent.run_state, "running");
  const names = body.entries.map((e) => e.event);
  assert.deepEqual(
    names.filter((n) => n !== "agent_input"),
    ["agent_started", "agent_text", "tool_called", "tool_result", "tool_denied", "turn.usage", "agent_text"],
  );
  // The turn's input shows where the turn started, once: not again at the acknowledgement after it.
  assert.deepEqual(names.slice(0, 3), ["agent_started", "agent_input", "agent_text"]);
  const inputs = body.entries.filter((e) => e.event === "agent_input");
  assert.equal(inputs.filter((e) => e.data.message_id === goalMessage).length, 1, JSON.stringify(inputs));
  assert.equal(inputs.length, inbox.messages.length, "one input per delivered message");
  const turn = inputs[0];
  assert.equal(turn?.data.message_id, goalMessage);
  assert.match(turn?.message?.content ?? "", /Transcript test goal/, "the delivered message is in the turn");
  const call1 = body.entries.find((e) => e.event === "tool_called");
  assert.equal(call1?.data.tool, "mcp__switchboard__declare_plan");
  assert.equal(body.entries.find((e) => e.event === "tool_result")?.data.content, "plan declared");
  assert.equal(body.entries.find((e) => e.event === "turn.usage")?.data.input_tokens, 1200);
  const long = body.entries.at(-1);
  assert.ok(String(long?.data.text).length <= 2001, "texts are bounded");
  // Nothing of other events (goal_created, send_message, …) and nothing of other agents.
  assert.ok(!names.includes("goal_created"));

  // Paging: a small page is the newest entries; `before` walks back; `after` walks forward.
  const tail = (await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id, "?limit=2")))
    .json as unknown as Transcript;
  assert.deepEqual(
    tail.entries.map((e) => e.seq),
    body.entries.slice(-2).map((e) => e.seq),
  );
  assert.equal(tail.older_cursor, tail.entries[0]?.seq);
  const older = (
    await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id, `?limit=2&before=${tail.older_cursor}`))
  ).json as unknown as Transcript;
  assert.deepEqual(
    older.entries.map((e) => e.seq),
    body.entries.slice(-4, -2).map((e) => e.seq),
  );
  const first = body.entries[0]?.seq ?? 0;
  const fwd = (await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id, `?after=${first}&limit=1`)))
    .json as unknown as Transcript;
  assert.deepEqual(
    fwd.entries.map((e) => e.seq),
    [body.entries[1]?.seq],
  );

  // Owner scoping: another owner, an agent of another goal, no credential.
  const other = await call(otherToken, "GET", transcriptUrl(g.goal_id, g.id));
  assert.equal(other.status, 404);
  assert.equal(other.code, "not_found");
  const otherGoal = sc<{ goal_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Other goal", description: "Another goal of the same owner." },
    }),
  );
  assert.equal((await call(ownerToken, "GET", transcriptUrl(otherGoal.goal_id, g.id))).status, 404);
  assert.equal((await call(undefined, "GET", transcriptUrl(g.goal_id, g.id))).status, 401);
  assert.equal((await call(otherToken, "POST", `/api/agents/${g.id}/stop`, {})).status, 404);
  await db.write(({ db: d }) =>
    d.goal.updateMany({
      where: { id: { in: [g.goal_id, otherGoal.goal_id] } },
      data: { status: "cancelled" },
    }),
  );
});

test("the transcript stream delivers entries recorded after its cursor", async () => {
  const g = await goalWithLaunchedCoordinator("Stream goal");
  const start = (await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id))).json as unknown as Transcript;
  const ac = new AbortController();
  const res = await server.fetch(`${transcriptUrl(g.goal_id, g.id)}/stream?after=${start.next_cursor}`, {
    headers: { authorization: `Bearer ${ownerToken}` },
    signal: ac.signal,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  await runner(`/api/runner/agents/${g.id}/events`, {
    ...g.ref,
    events: [{ type: "tool_called", toolUseId: "tu_live", name: "Bash", input: { command: "ls" } }],
  });
  while (!text.includes("tu_live")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  ac.abort();
  assert.match(text, /event: entry\n/);
  assert.ok(!text.includes('"agent_started"'), "nothing before the cursor");
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "cancelled" } }));
});

test("Stop ends the process and keeps the agent stopped; Restart queues it again; Terminate ends it for good", async () => {
  const g = await goalWithLaunchedCoordinator("Stop goal");
  const stop = await call(ownerToken, "POST", `/api/agents/${g.id}/stop`, {});
  assert.equal(stop.status, 200, JSON.stringify(stop.json));
  assert.deepEqual(stop.json, { agent_id: g.id, stopped: true, run_state: "stopped" });
  // The runner holding it is told to stop at its next renewal; its exit leaves the agent stopped.
  assert.deepEqual((await runner(`/api/runner/agents/${g.id}/renew`, g.ref)).json, { action: "stop" });
  const exited = await runner(`/api/runner/agents/${g.id}/state`, {
    ...g.ref,
    state: "exited",
    stopped: true,
    exit_code: 0,
  });
  assert.deepEqual(exited.json, { run_state: "stopped" });
  // Not launched again while stopped.
  const none = await runner("/api/runner/poll", { instance: "t1", runtimes: ["command"], agent_slots: 1 });
  assert.equal(none.json.job, null);
  const t = (await call(ownerToken, "GET", transcriptUrl(g.goal_id, g.id))).json as unknown as Transcript;
  assert.equal(t.agent.run_state, "stopped");
  assert.equal(t.agent.status, "active", "the agent itself is not terminated");
  const completed = t.entries.find((e) => e.event === "agent_completed");
  assert.equal(completed?.data.reason, "stopped_by_owner");
  assert.ok(t.entries.some((e) => e.event === "agent_stop_requested"));
  // Stop again: nothing to stop.
  assert.equal((await call(ownerToken, "POST", `/api/agents/${g.id}/stop`, {})).json.stopped, false);

  // Restart: queued, then a runner takes launch N+1.
  const restart = await call(ownerToken, "POST", `/api/agents/${g.id}/restart`, {});
  assert.deepEqual(restart.json, { agent_id: g.id, restarted: true });
  const again = await runner("/api/runner/poll", { instance: "t1", runtimes: ["command"], agent_slots: 1 });
  const job = again.json.job as { agent_id: number; launch: number };
  assert.equal(job.agent_id, g.id);
  assert.equal(job.launch, g.ref.launch + 1);
  const ref2 = { instance: "t1", launch: job.launch };
  await runner(`/api/runner/agents/${g.id}/state`, { ...ref2, state: "running" });

  // Stop, then Restart before the runner noticed: the stop is called off, no second launch.
  await call(ownerToken, "POST", `/api/agents/${g.id}/stop`, {});
  assert.deepEqual((await call(ownerToken, "POST", `/api/agents/${g.id}/restart`, {})).json, {
    agent_id: g.id,
    restarted: true,
  });
  assert.deepEqual((await runner(`/api/runner/agents/${g.id}/renew`, ref2)).json, { action: "continue" });

  // The coordinator is not terminated by hand (it ends with its goal); a spawned agent is.
  const refused = await call(ownerToken, "POST", `/api/agents/${g.id}/terminate`, {});
  assert.equal(refused.status, 422);
  const key = (await runner(`/api/runner/agents/${g.id}/key`, ref2)).json.api_key as string;
  const coord = await server.client(key);
  await coord.callTool({
    name: "declare_plan",
    arguments: { tasks: [{ id: "w", role: "worker", skill: "engineer", task: "Work" }] },
  });
  const spawned = sc<{ agent_id: string }>(
    await coord.callTool({ name: "spawn_agent", arguments: { task_id: "w" } }),
  );
  await coord.close();
  const childId = Number(spawned.agent_id);
  const term = await call(ownerToken, "POST", `/api/agents/${childId}/terminate`, {});
  assert.deepEqual(term.json, { agent_id: childId, terminated: true });
  const child = await db.read(({ db: d }) => d.agent.findUnique({ where: { id: childId } }));
  assert.equal(child?.status, "terminated");
  assert.equal(child?.runState, "exited");
  await eventually(
    async () => {
      const r = await runner("/api/runner/poll", { instance: "t1", runtimes: ["command"], agent_slots: 1 });
      return r.json.job === null ? true : undefined;
    },
    5000,
    "a terminated agent is not launched",
  );
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "cancelled" } }));
});

test("a secret value the agent prints or passes to a tool is redacted from the transcript", async () => {
  const value = `canary-${Math.random().toString(36).slice(2)}-"quoted"`;
  const me = sc<{ user_id: number }>(await owner.callTool({ name: "whoami", arguments: {} }));
  const put = await call(ownerToken, "PUT", `/api/secrets/user/${me.user_id}/DEPLOY_TOKEN`, { value });
  assert.equal(put.status, 200, JSON.stringify(put.json));
  const g = await goalWithLaunchedCoordinator("Secret goal");
  await runner(`/api/runner/agents/${g.id}/events`, {
    ...g.ref,
    events: [
      { type: "output", stream: "stdout", line: `token is ${value}` },
      { type: "tool_called", toolUseId: "tu_s", name: "Bash", input: { command: `curl -H 'x: ${value}'` } },
      { type: "tool_result", toolUseId: "tu_s", isError: false, content: `echo ${value}` },
      { type: "assistant_text", text: `I used ${value}.` },
    ],
  });
  await runner(`/api/runner/agents/${g.id}/state`, { ...g.ref, state: "crashed", error: `died: ${value}` });
  const raw = await server.fetch(transcriptUrl(g.goal_id, g.id), {
    headers: { authorization: `Bearer ${ownerToken}` },
  });
  const text = await raw.text();
  assert.equal(raw.status, 200);
  assert.ok(text.includes("[secret DEPLOY_TOKEN]"), text);
  assert.ok(!text.includes("canary-"), "no part of the value in the transcript");
  const all = await call(ownerToken, "GET", `/api/goals/${g.goal_id}/events?limit=1000`);
  assert.ok(!JSON.stringify(all.json).includes("canary-"), "nor in the goal's event log");
  await call(ownerToken, "DELETE", `/api/secrets/user/${me.user_id}/DEPLOY_TOKEN`);
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "cancelled" } }));
});

/** A browser session through next-auth's credentials sign-in (the harness's owners share one password). */
async function signIn(email: string, password = "correct-horse-battery"): Promise<string> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  jar.push(...res.headers.getSetCookie().map((c) => c.split(";")[0]));
  return jar.join("; ");
}

test("the runners page is the operator's (the first owner): another owner sees no tokens and no nav link", async () => {
  const page = async (email: string) =>
    (await fetch(`${server.url}/runners`, { headers: { cookie: await signIn(email) } })).text();
  const mine = await page("owner@example.com");
  assert.match(mine, /data-testid="runner-token-\d+"/);
  assert.match(mine, /href="\/runners"/);
  const theirs = await page("other@example.com");
  assert.match(theirs, /data-testid="runners-forbidden"/);
  assert.doesNotMatch(theirs, /runner-token-/);
  assert.doesNotMatch(theirs, /href="\/runners"/);
});
