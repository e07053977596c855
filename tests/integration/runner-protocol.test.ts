// The runner protocol over HTTP (issue 11, docs/runner.md), driven by hand: runner-token auth, which
// launches a runner is offered, the launch key, lease answers (continue / stop / kill), lease_lost,
// events; the `switchboard runner token` CLI; and the embedded runner of `npm start`.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sc, startServer, type TestServer } from "../helpers/server";
import { eventually, events as goalEvents, task } from "../helpers/teams";

let server: TestServer;
let owner: Client;
let ownerToken: string;
let db: typeof import("@/lib/db");
let tokens: typeof import("@/lib/domain/runner/tokens");
let skills: typeof import("@/lib/domain/skills/skills");
const clients: Client[] = [];

before(async () => {
  server = await startServer({ env: { SWITCHBOARD_RUNNER_LEASE_S: "30" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  tokens = await import("@/lib/domain/runner/tokens");
  skills = await import("@/lib/domain/skills/skills");
  ownerToken = await server.ownerToken();
  owner = await server.client(ownerToken);
});

after(async () => {
  await Promise.all([owner, ...clients].map((c) => c?.close().catch(() => {})));
  await db?.disconnect();
  await server?.stop();
});

type Json = Record<string, unknown>;
async function post(token: string | undefined, url: string, body: unknown = {}) {
  const r = await server.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as Json & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}

async function setRuntime(name: string, runtime: "command" | "claude-code") {
  const s = await skills.getBuiltinSkill(name);
  await skills.saveBuiltinSkill({
    name,
    description: s.description,
    system_prompt: s.system_prompt,
    runtime,
    command: runtime === "command" ? { cmd: "true" } : null,
  });
}

async function createGoal(title: string) {
  return sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({ name: "create_goal", arguments: { title, description: "A protocol test goal." } }),
  );
}

/** A browser session for the harness owner, through next-auth's credentials sign-in. */
async function signIn(email = "owner@example.com", password = "correct-horse-battery"): Promise<string> {
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

const poll = (token: string, instance: string, extra: Json = {}) =>
  post(token, "/api/runner/poll", { instance, runtimes: ["command"], agent_slots: 1, ...extra });

test("runner auth: no token, an owner token, an unknown or a revoked runner token → 401 unauthorized", async () => {
  const t = await tokens.createRunnerToken({ name: "auth" });
  assert.match(t.token, /^sb_runner_/);
  // Stored hashed: the secret is nowhere in the table.
  const row = await db.read(({ db: d }) => d.runnerToken.findUnique({ where: { id: t.id } }));
  assert.notEqual(row?.hash, t.token);
  assert.ok(!JSON.stringify(row).includes(t.token));
  for (const bad of [undefined, ownerToken, "sb_runner_nope"]) {
    const r = await post(bad, "/api/runner/poll", { instance: "x" });
    assert.equal(r.status, 401);
    assert.equal(r.code, "unauthorized");
  }
  assert.equal((await poll(t.token, "x")).status, 200);
  await tokens.revokeRunnerToken(t.id);
  assert.equal((await poll(t.token, "x")).code, "unauthorized");
});

test("a claude-code template is not handed to a command-only runner: its agent stays queued", async () => {
  await setRuntime("coordinator", "claude-code");
  const t = await tokens.createRunnerToken({ name: "cc" });
  const g = await createGoal("Claude goal");
  const r = await poll(t.token, "cc");
  assert.equal(r.json.job, null);
  const a = await db.read(({ db: d }) => d.agent.findUnique({ where: { id: g.coordinator_agent_id } }));
  assert.equal(a?.runState, "queued");
  assert.equal(a?.runnerManaged, true);
  // Nor is an agent registered with `agent create` (it runs elsewhere) ever a launch.
  const reg = await server.createAgent({ goal: g.goal_id, name: "outside" });
  const b = await db.read(({ db: d }) => d.agent.findUnique({ where: { id: reg.agent_id } }));
  assert.equal(b?.runnerManaged, false);
  assert.equal(b?.runState, null);
  // The goal page shows both: the coordinator queued, the registered agent external.
  const html = await (
    await fetch(`${server.url}/goals/${g.goal_id}`, { headers: { cookie: await signIn() } })
  ).text();
  const cells = [...html.matchAll(/data-testid="run-state"[^>]*>([^<]*)</g)].map((m) => m[1]);
  assert.deepEqual(cells, ["queued", "external"]);
  // Leave it out of the later tests' way.
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "cancelled" } }));
});

test("a launch: exactly one of two polling runners takes it; key, running, events, lease answers, lease_lost", async () => {
  await setRuntime("coordinator", "command");
  await setRuntime("engineer", "command");
  const t = await tokens.createRunnerToken({ name: "proto" });
  // Two runners long-poll at once; one goal is created: one of them gets the job, the other times out.
  const polls = [poll(t.token, "p1", { wait_s: 3 }), poll(t.token, "p2", { wait_s: 3 })];
  const g = await createGoal("Protocol goal");
  const results = await Promise.all(polls);
  const got = results.filter((r) => r.json.job !== null);
  assert.equal(got.length, 1, JSON.stringify(results.map((r) => r.json)));
  const job = got[0]?.json.job as Json;
  const instance = results[0]?.json.job ? "p1" : "p2";
  assert.equal(job.kind, "agent");
  assert.equal(job.agent_id, g.coordinator_agent_id);
  assert.equal(job.runtime, "command");
  assert.equal(job.launch, 1);
  assert.match(String(job.system_prompt), /You are agent coordinator/);
  assert.equal((job.env as Json).SWITCHBOARD_GOAL_ID, String(g.goal_id));
  const ref = { instance, launch: 1 };
  const agentUrl = (op: string) => `/api/runner/agents/${g.coordinator_agent_id}/${op}`;

  // The other runner cannot act on this launch.
  const stolen = await post(t.token, agentUrl("key"), {
    instance: instance === "p1" ? "p2" : "p1",
    launch: 1,
  });
  assert.equal(stolen.status, 409);
  assert.equal(stolen.code, "lease_lost");

  // A key for the launch; an earlier key of the agent is revoked by it.
  const before = await server.agentKey(g.coordinator_agent_id);
  const { json: k } = await post(t.token, agentUrl("key"), ref);
  const key = String(k.api_key);
  assert.match(key, /^sb_agent_/);
  const old = await server.client(before).catch((e: Error) => e);
  assert.ok(old instanceof Error, "the key issued before the launch no longer works");
  const agent = await server.client(key);
  clients.push(agent);
  assert.equal(
    sc<{ agent_id: string }>(await agent.callTool({ name: "whoami", arguments: {} })).agent_id,
    String(g.coordinator_agent_id),
  );

  // running → agent_started; events → recorded, bounded.
  assert.equal(
    (await post(t.token, agentUrl("state"), { ...ref, state: "running", runtime: "command" })).json.run_state,
    "running",
  );
  const long = "x".repeat(5000);
  const ev = await post(t.token, agentUrl("events"), {
    ...ref,
    events: [
      { type: "session", sessionId: "sess-1" },
      { type: "tool_called", toolUseId: "u1", name: "whoami", input: {} },
      { type: "tool_result", toolUseId: "u1", isError: false, content: long },
      { type: "output", stream: "stdout", line: "hello" },
    ],
  });
  assert.equal(ev.json.recorded, 3);
  const bad = await post(t.token, agentUrl("events"), { ...ref, events: [{ type: "nope" }] });
  assert.equal(bad.code, "invalid_input");
  const rows = await goalEvents(server, ownerToken, g.goal_id);
  const names = rows.filter((e) => e.agent_id === g.coordinator_agent_id).map((e) => e.event);
  for (const n of ["agent_started", "tool_called", "tool_result", "agent_output"])
    assert.ok(names.includes(n), n);
  const result = rows.find((e) => e.event === "tool_result");
  assert.ok(String(result?.data.content).length <= 2001);

  // Each turn's usage: a `turn.usage` event and the spend, recorded once per turn (keyed by launch and turn).
  const turn = (n: number, costUsd?: number) => ({
    type: "turn.usage",
    model: "claude-sonnet-4-5",
    inputTokens: 1000 * n,
    outputTokens: 100,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    ...(costUsd === undefined ? {} : { costUsd }),
  });
  await post(t.token, agentUrl("events"), { ...ref, events: [turn(1, 0.0123), turn(2)] });
  await post(t.token, agentUrl("events"), { ...ref, events: [turn(3, 0.5)] });
  const spend = await db.read(async ({ db: d }) => ({
    usage: await d.usage.findMany({ where: { agentId: g.coordinator_agent_id }, orderBy: { id: "asc" } }),
    goal: await d.goal.findUniqueOrThrow({ where: { id: g.goal_id } }),
  }));
  assert.deepEqual(
    spend.usage.map((x) => [x.idempotencyKey, x.source, x.inputTokens]),
    [
      ["runner:1:1", "runner", 1000],
      ["runner:1:2", "runner", 2000],
      ["runner:1:3", "runner", 3000],
    ],
  );
  assert.equal(spend.usage[0]?.cents, 1);
  assert.equal(spend.usage[2]?.cents, 50);
  assert.equal(Number(spend.goal.spentTokens), 1100 + 2100 + 3100); // a 64-bit column: bigint from Prisma
  const usageEvents = (await goalEvents(server, ownerToken, g.goal_id)).filter(
    (e) => e.event === "turn.usage",
  );
  assert.equal(usageEvents.length, 3);

  // Lease answers: continue; stop while the goal is paused; continue again once it resumes.
  assert.equal((await post(t.token, agentUrl("renew"), ref)).json.action, "continue");
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "paused" } }));
  assert.equal((await post(t.token, agentUrl("renew"), ref)).json.action, "stop");
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "active" } }));
  assert.equal((await post(t.token, agentUrl("renew"), ref)).json.action, "continue");
  // Quarantined: stop, and once its process is reported ended it waits in the queue (not launched).
  await db.write(({ db: d }) =>
    d.agent.update({ where: { id: g.coordinator_agent_id }, data: { quarantinedAt: new Date() } }),
  );
  assert.equal((await post(t.token, agentUrl("renew"), ref)).json.action, "stop");
  await db.write(({ db: d }) =>
    d.agent.update({ where: { id: g.coordinator_agent_id }, data: { quarantinedAt: null } }),
  );

  // A forced termination of a spawned agent: its renewal answers kill.
  const coord = await server.client(await server.agentKey(g.coordinator_agent_id));
  clients.push(coord);
  await coord.callTool({ name: "declare_plan", arguments: { tasks: [task("a")] } });
  const child = sc<{ agent_id: string }>(
    await coord.callTool({ name: "spawn_agent", arguments: { task_id: "a" } }),
  );
  const cj = (await poll(t.token, instance)).json.job as Json;
  assert.equal(String(cj.agent_id), child.agent_id);
  const cref = { instance, launch: 1 };
  const childUrl = (op: string) => `/api/runner/agents/${child.agent_id}/${op}`;
  await post(t.token, childUrl("state"), { ...cref, state: "running" });
  assert.equal((await post(t.token, childUrl("renew"), cref)).json.action, "continue");
  const forced = await coord.callTool({
    name: "terminate_child",
    arguments: { agent_id: child.agent_id, force: true },
  });
  assert.ok(!forced.isError, JSON.stringify(forced));
  assert.equal((await post(t.token, childUrl("renew"), cref)).json.action, "kill");
  assert.equal(
    (await post(t.token, childUrl("state"), { ...cref, state: "crashed", stopped: true, signal: "SIGKILL" }))
      .json.run_state,
    "exited",
  );

  // The coordinator's lease is lost (its runner went quiet): expired, it is taken again, launch 2, with
  // its session to resume; the old launch's reports are refused, its renewal answers kill.
  await db.write(({ db: d }) =>
    d.agent.update({
      where: { id: g.coordinator_agent_id },
      data: { leaseUntil: new Date(Date.now() - 1000) },
    }),
  );
  const again = (await poll(t.token, "p3")).json.job as Json;
  assert.equal(again.agent_id, g.coordinator_agent_id);
  assert.equal(again.launch, 2);
  assert.equal(again.resume_session_id, "sess-1");
  assert.equal((await post(t.token, agentUrl("renew"), ref)).json.action, "kill");
  const late = await post(t.token, agentUrl("state"), { ...ref, state: "exited", exit_code: 0 });
  assert.equal(late.status, 409);
  assert.equal(late.code, "lease_lost");
  // The new launch's key revokes the old launch's.
  await post(t.token, agentUrl("key"), { instance: "p3", launch: 2 });
  const r = await agent.callTool({ name: "whoami", arguments: {} }).catch((e: Error) => e);
  assert.ok(r instanceof Error, "the previous launch's key is revoked");
  // The goal completes: stop; the stopped agent is exited (not queued for a goal that is over).
  const ref2 = { instance: "p3", launch: 2 };
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal_id }, data: { status: "completed" } }));
  assert.equal((await post(t.token, agentUrl("renew"), ref2)).json.action, "stop");
  const end = await post(t.token, agentUrl("state"), {
    ...ref2,
    state: "exited",
    stopped: true,
    exit_code: 0,
  });
  assert.equal(end.json.run_state, "exited");
});

test("`switchboard runner token create / revoke / list`", async () => {
  const secret = await server.cli("runner", "token", "create", "--name", "cli-runner");
  assert.match(secret, /^sb_runner_/);
  assert.equal((await poll(secret, "cli")).status, 200);
  const list = JSON.parse(await server.cli("runner", "token", "list")) as { id: number; name: string }[];
  const mine = list.find((x) => x.name === "cli-runner");
  assert.ok(mine);
  assert.deepEqual(JSON.parse(await server.cli("runner", "token", "revoke", String(mine.id))), {
    id: mine.id,
    revoked: true,
  });
  assert.equal((await poll(secret, "cli")).code, "unauthorized");
});

test("`switchboard events export --goal ID`: JSON lines in the orchestrator's shape; an unknown goal fails", async () => {
  const g = await createGoal("Export goal");
  const lines = (await server.cli("events", "export", "--goal", String(g.goal_id))).split("\n");
  const rows = lines.map((l) => JSON.parse(l) as Json);
  assert.equal(rows[0]?.event, "goal_created");
  assert.equal(rows[0]?.task_id, null);
  assert.deepEqual(Object.keys(rows[0] ?? {}).slice(0, 5), ["ts", "event", "task_id", "agent_id", "team_id"]);
  const registered = rows.find((r) => r.event === "agent_registered");
  assert.equal(registered?.agent_id, String(g.coordinator_agent_id));
  assert.equal(registered?.goal_id, String(g.goal_id));
  assert.deepEqual(
    rows.map((r) => r.seq),
    rows.map((_, i) => i + 1),
  );
  await assert.rejects(server.cli("events", "export", "--goal", "999999"), /not_found/);
});

test("npm start's embedded runner: launches a coordinator over HTTP with a token it made (hashed); off with 0", async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-embedded-"));
  const hub = await startServer({
    shareDatabaseWith: server,
    env: { SWITCHBOARD_EMBEDDED_RUNNER: "1", SWITCHBOARD_RUNNER_WORK_DIR: work },
  });
  try {
    await setRuntime("coordinator", "command"); // `true`: starts and exits 0
    const g = await createGoal("Embedded goal");
    await eventually(
      async () => {
        const a = await db.read(({ db: d }) => d.agent.findUnique({ where: { id: g.coordinator_agent_id } }));
        return a?.runState === "exited";
      },
      30_000,
      "the embedded runner ran the coordinator",
    );
    const started = (await goalEvents(server, ownerToken, g.goal_id)).find(
      (e) => e.event === "agent_started",
    );
    assert.match(String(started?.data.runner), /:embedded-/);
    const row = await db.read(({ db: d }) =>
      d.runnerToken.findFirst({ where: { name: { startsWith: "embedded-" } } }),
    );
    assert.match(String(row?.hash), /^[0-9a-f]{64}$/);
    assert.ok(fs.existsSync(path.join(work, `goal-${g.goal_id}`, `agent-${g.coordinator_agent_id}`)));
  } finally {
    await hub.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  // The test harness's servers run with SWITCHBOARD_EMBEDDED_RUNNER=0: no token was made by them.
  const embedded = await db.read(({ db: d }) =>
    d.runnerToken.count({ where: { name: { startsWith: "embedded-" } } }),
  );
  assert.equal(embedded, 1);
});
