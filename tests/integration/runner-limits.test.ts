// Template limits (issue 11 §3, docs/runner.md "Limits") end to end: the real server, a real runner process
// (`bin/runner.mjs`, HTTP only), the `command` runtime with the small agent script, and real Claude Code
// driven by the stand-in model for `max_turns`. `max_minutes` uses a short template minute
// (SWITCHBOARD_RUNNER_MINUTE_MS); `max_cost_cents` is reached through recorded usage (the usage operation).
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { SkillInput } from "@/lib/domain/skills/skills";
import { type ModelServer, startModelServer } from "@/lib/standin/model-server";
import { claudeCodeUnavailable } from "../helpers/claude-code";
import { ROOT, sc, startServer, type TestServer } from "../helpers/server";
import { type EventRow, eventually, events as goalEvents, task } from "../helpers/teams";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`SKIPPING the max_turns test with Claude Code: ${unavailable}`);

const SCRIPT = path.join(ROOT, "tests/helpers/agent-script.mjs");
const MINUTE_MS = 1500;
let server: TestServer;
let model: ModelServer | undefined;
let owner: Client;
let ownerToken: string;
let db: typeof import("@/lib/db");
let jobs: typeof import("@/lib/domain/runner/launch-jobs");
let skills: typeof import("@/lib/domain/skills/skills");
let runner: ChildProcess | undefined;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-runner-limits-"));

before(async () => {
  [server, model] = await Promise.all([
    startServer({ env: { SWITCHBOARD_RUNNER_LEASE_S: "2", SWITCHBOARD_RUNNER_BACKOFF_MS: "100" } }),
    unavailable ? Promise.resolve(undefined) : startModelServer(),
  ]);
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  jobs = await import("@/lib/domain/runner/launch-jobs");
  skills = await import("@/lib/domain/skills/skills");
  ownerToken = await server.ownerToken();
  owner = await server.client(ownerToken);
});

after(async () => {
  await stopRunner();
  await owner?.close().catch(() => {});
  await db?.disconnect();
  await model?.close();
  await server?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function stopRunner() {
  const r = runner;
  runner = undefined;
  if (!r || r.exitCode !== null || r.signalCode !== null) return;
  const exited = new Promise((res) => r.once("exit", res));
  r.kill("SIGTERM");
  await Promise.race([exited, new Promise((res) => setTimeout(res, 15_000))]);
  if (r.exitCode === null && r.signalCode === null) r.kill("SIGKILL");
}

/** A real runner process; model settings for Claude Code when the stand-in runs. */
async function startRunner(name: string) {
  await stopRunner();
  const token = (
    await (await import("@/lib/domain/runner/tokens")).createRunnerToken({ name: `lim-${name}` })
  ).token;
  runner = spawn(process.execPath, [path.join(ROOT, "bin/runner.mjs"), "--name", name], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: fs.mkdtempSync(path.join(workDir, "home-")),
      SWITCHBOARD_RUNNER_HUB: server.url,
      SWITCHBOARD_RUNNER_TOKEN: token,
      SWITCHBOARD_RUNNER_WORK_DIR: workDir,
      SWITCHBOARD_RUNNER_MINUTE_MS: String(MINUTE_MS),
      LOG_LEVEL: process.env.TEST_SERVER_LOG ? "info" : "error",
      ...(model ? { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "sk-standin" } : {}),
    },
    stdio: ["ignore", "ignore", process.env.TEST_SERVER_LOG ? "inherit" : "ignore"],
  });
}

/** Goals of earlier tests are finished first, so that the runner serves only the goal of its test. */
async function finishGoals() {
  await db.write(({ db: d }) =>
    d.goal.updateMany({
      where: { status: { notIn: ["completed", "cancelled"] } },
      data: { status: "completed" },
    }),
  );
}

/** Point a built-in template at a runtime, with limits (everything else as it is). */
async function template(name: string, over: Partial<SkillInput>) {
  const s = await skills.getBuiltinSkill(name);
  await skills.saveBuiltinSkill({
    name,
    description: s.description,
    system_prompt: s.system_prompt,
    ...over,
  });
}
const commandRuntime = { runtime: "command" as const, command: { cmd: process.execPath, args: [SCRIPT] } };
const noLimits = { max_turns: null, max_minutes: null, max_cost_cents: null };

async function createGoal(title: string) {
  const r = await owner.callTool({
    name: "create_goal",
    arguments: { title, description: "A goal with template limits." },
  });
  assert.ok(!r.isError, JSON.stringify(r.structuredContent));
  return sc<{ goal_id: number; coordinator_agent_id: number }>(r);
}
const runState = async (goalId: number, agentId: number) =>
  (await jobs.goalRunStates(goalId)).find((a) => a.agent_id === agentId);
const named = (rows: EventRow[], name: string, agentId: number) =>
  rows.filter((e) => e.event === name && e.agent_id === agentId);
/** The goal channel's messages (what the owner reads there). */
async function channel(goalId: number): Promise<string[]> {
  const rows = await db.read(({ db: d }) =>
    d.message.findMany({ where: { goalId, channelId: { not: null } }, select: { content: true } }),
  );
  return rows.map((m) => m.content);
}

test("skills: limits are validated (positive whole numbers, optional), saved, shown, cleared with null", async () => {
  await assert.rejects(
    skills.saveBuiltinSkill({ name: "engineer", description: "d", system_prompt: "p", max_turns: 0 }),
    /max_turns|too small|>0/i,
  );
  await assert.rejects(
    skills.saveBuiltinSkill({ name: "engineer", description: "d", system_prompt: "p", max_minutes: 1.5 }),
  );
  // Over REST, as the owner edits skills: a built-in is read-only (409); the owner's copy is theirs to edit.
  const auth = { Authorization: `Bearer ${ownerToken}`, "Content-Type": "application/json" };
  const refused = await server.fetch("/api/skills/reviewer", {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({ description: "r", system_prompt: "p", max_turns: 7 }),
  });
  assert.equal(refused.status, 409, await refused.clone().text());
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, "skill_builtin_read_only");
  const copied = await server.fetch("/api/skills/reviewer/copy", {
    method: "POST",
    headers: auth,
    body: "{}",
  });
  assert.equal(copied.status, 201, await copied.clone().text());
  const bad = await server.fetch("/api/skills/reviewer", {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({ description: "r", system_prompt: "p", max_cost_cents: -5 }),
  });
  assert.equal(bad.status, 422);
  const put = await server.fetch("/api/skills/reviewer", {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({
      description: "r",
      system_prompt: "p",
      max_turns: 7,
      max_minutes: 30,
      max_cost_cents: 250,
    }),
  });
  assert.equal(put.status, 200, await put.clone().text());
  const got = (await put.json()) as Record<string, unknown>;
  assert.deepEqual([got.max_turns, got.max_minutes, got.max_cost_cents], [7, 30, 250]);
  const mine = async () =>
    (await (await server.fetch("/api/skills/reviewer", { headers: auth })).json()) as Record<string, unknown>;
  // Omitted on an edit: unchanged; null: cleared.
  await server.fetch("/api/skills/reviewer", {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({ description: "r", system_prompt: "p" }),
  });
  assert.equal((await mine()).max_turns, 7);
  await server.fetch("/api/skills/reviewer", {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({ description: "r", system_prompt: "p", ...noLimits }),
  });
  const cleared = await mine();
  assert.deepEqual([cleared.max_turns, cleared.max_minutes, cleared.max_cost_cents], [null, null, null]);
  // The built-in itself never changed.
  assert.equal((await skills.getBuiltinSkill("reviewer")).max_turns, null);
  assert.equal((await server.fetch("/api/skills/reviewer", { method: "DELETE", headers: auth })).status, 204);
});

test("max_minutes (command runtime): the runner stops the agent cleanly when its time is up; exited, limit.max_minutes, not relaunched", async () => {
  await finishGoals();
  await template("coordinator", { ...commandRuntime, ...noLimits, max_minutes: 2 });
  await startRunner("minutes");
  const g = await createGoal("Timed goal");
  const a = g.coordinator_agent_id;
  await eventually(async () => (await runState(g.goal_id, a))?.run_state === "running", 20_000, "running");
  const st = await eventually(
    async () => {
      const s = await runState(g.goal_id, a);
      return s?.run_state === "exited" ? s : undefined;
    },
    30_000,
    "exited on its time limit",
  );
  assert.match(String(st.last_error), /^limit\.max_minutes/);
  const rows = await goalEvents(server, ownerToken, g.goal_id);
  const started = named(rows, "agent_started", a)[0];
  const done = named(rows, "agent_completed", a);
  assert.deepEqual(
    done.map((e) => e.data.reason),
    ["limit.max_minutes"],
  );
  // Cleanly: the program got SIGTERM and said so; and not before its two (short) minutes.
  assert.ok(named(rows, "agent_output", a).some((e) => /stopping on SIGTERM/.test(String(e.data.line))));
  assert.ok(started && done[0]);
  assert.ok(Date.parse(done[0].ts) - Date.parse(started.ts) >= 2 * MINUTE_MS - 200, "ran its time");
  assert.equal((await channel(g.goal_id)).filter((m) => /reached the max_minutes limit/.test(m)).length, 1);
  // Not relaunched: a few leases later it is still exited on its first launch.
  await new Promise((r) => setTimeout(r, 4000));
  assert.deepEqual(
    [(await runState(g.goal_id, a))?.run_state, (await runState(g.goal_id, a))?.launches],
    ["exited", 1],
  );
  await template("coordinator", noLimits);
});

test("max_cost_cents: the agent's recorded spend reaches the limit → stopped at the next renewal, its leader and the owner told once, not relaunched; restart after raising it", async () => {
  await finishGoals();
  await template("coordinator", { ...commandRuntime, ...noLimits });
  await template("engineer", { ...commandRuntime, ...noLimits, max_cost_cents: 5 });
  await startRunner("cost");
  const g = await createGoal("Costly goal");
  await eventually(
    async () => (await runState(g.goal_id, g.coordinator_agent_id))?.run_state === "running",
    20_000,
    "the coordinator running",
  );
  const coord = await server.client(await server.agentKey(g.coordinator_agent_id));
  const call = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) =>
    sc<T>(await coord.callTool({ name, arguments: args }));
  await call("declare_plan", { tasks: [task("a")] });
  const child = Number((await call<{ agent_id: string }>("spawn_agent", { task_id: "a" })).agent_id);
  await eventually(
    async () => (await runState(g.goal_id, child))?.run_state === "running",
    20_000,
    "running",
  );

  const { recordUsage } = await import("@/lib/domain/usage/record-usage");
  const spend = (cents: number, key: string) =>
    recordUsage({
      agentId: child,
      model: "claude-sonnet-4-5",
      inputTokens: 10,
      outputTokens: 10,
      costCents: cents,
      source: "agent",
      idempotencyKey: key,
    });
  // Under the limit: it keeps running across renewals (the lease is 2 s, renewed every ~0.7 s).
  await spend(3, "u1");
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal((await runState(g.goal_id, child))?.run_state, "running");
  // Reaching it: the next renewal stops it.
  await spend(2, "u2");
  const st = await eventually(
    async () => {
      const s = await runState(g.goal_id, child);
      return s?.run_state === "stopped" ? s : undefined;
    },
    20_000,
    "stopped on its spend limit",
  );
  assert.match(
    String(st.last_error),
    /^limit\.max_cost_cents: spent \$0\.05 of the template's limit of \$0\.05/,
  );
  const rows = await eventually(
    async () => {
      const r = await goalEvents(server, ownerToken, g.goal_id);
      return named(r, "agent_completed", child).length > 0 ? r : undefined;
    },
    20_000,
    "the launch ended",
  );
  assert.deepEqual(
    named(rows, "agent_limit_reached", child).map((e) => [
      e.data.reason,
      e.data.spent_cents,
      e.data.limit_cents,
    ]),
    [["limit.max_cost_cents", 5, 5]],
  );
  assert.deepEqual(
    named(rows, "agent_completed", child).map((e) => e.data.reason),
    ["limit.max_cost_cents"],
  );
  assert.ok(named(rows, "agent_output", child).some((e) => /stopping on SIGTERM/.test(String(e.data.line))));
  // One notice: the leader's inbox and the owner's goal channel.
  const toLeader = await db.read(({ db: d }) =>
    d.message.findMany({
      where: { recipientAgentId: g.coordinator_agent_id, content: { contains: "spend limit" } },
    }),
  );
  assert.equal(toLeader.length, 1);
  assert.equal((await channel(g.goal_id)).filter((m) => /reached its spend limit/.test(m)).length, 1);

  // Not relaunched: several leases later it is still stopped on its first launch (more spend changes nothing).
  await spend(1, "u3");
  await new Promise((r) => setTimeout(r, 4000));
  const still = await runState(g.goal_id, child);
  assert.deepEqual([still?.run_state, still?.launches], ["stopped", 1]);
  assert.equal(
    named(await goalEvents(server, ownerToken, g.goal_id), "agent_limit_reached", child).length,
    1,
  );

  // The owner raises the limit and restarts it: it runs again, and keeps running.
  await template("engineer", { ...commandRuntime, max_cost_cents: 100 });
  assert.equal((await jobs.restartAgent(child)).restarted, true);
  await eventually(
    async () => {
      const s = await runState(g.goal_id, child);
      return s?.run_state === "running" && s.launches === 2;
    },
    20_000,
    "relaunched",
  );
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal((await runState(g.goal_id, child))?.run_state, "running");
  await coord.close();
  await template("engineer", noLimits);
});

test("max_turns (claude-code, stand-in model): the session ends cleanly after N completed turns; exited, limit.max_turns; the next message stays pending", {
  skip: unavailable ? `Claude Code cannot start here: ${unavailable}` : false,
}, async () => {
  await finishGoals();
  await template("coordinator", { runtime: "claude-code", command: null, ...noLimits, max_turns: 2 });
  assert.ok(model);
  model.setScript([
    { when: { userSays: "TURN-ONE" }, reply: { text: "First turn done." } },
    { when: { userSays: "TURN-TWO" }, reply: { text: "Second turn done." } },
    { when: { userSays: "TURN-THREE" }, reply: { text: "Third turn: must not happen." } },
  ]);
  await startRunner("turns");
  const g = await createGoal("Turn-limited goal");
  const a = g.coordinator_agent_id;
  const goal = await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id: g.goal_id } }));
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  // The coordinator's first turn may be a message it already has (the goal's); whatever it is, the turns are
  // counted: TURN-ONE, and TURN-TWO when the session has not ended yet, reach two turns.
  await sendOwnerMessage(goal.ownerId, { agentId: a, content: "TURN-ONE please." });
  const texts = async () =>
    named(await goalEvents(server, ownerToken, g.goal_id), "agent_text", a).map((e) => String(e.data.text));
  await eventually(async () => (await texts()).some((t) => t.includes("First turn done.")), 60_000, "turn 1");
  if ((await runState(g.goal_id, a))?.run_state === "running") {
    await sendOwnerMessage(goal.ownerId, { agentId: a, content: "TURN-TWO please." });
  }
  const st = await eventually(
    async () => {
      const s = await runState(g.goal_id, a);
      return s?.run_state === "exited" ? s : undefined;
    },
    60_000,
    "exited after two turns",
  );
  assert.match(String(st.last_error), /^limit\.max_turns/);
  const rows = await goalEvents(server, ownerToken, g.goal_id);
  assert.deepEqual(
    named(rows, "agent_completed", a).map((e) => [e.data.reason, e.data.turns]),
    [["limit.max_turns", 2]],
  );
  assert.equal(named(rows, "turn.usage", a).length, 2, "exactly two turns ran");
  assert.equal(named(rows, "agent_crashed", a).length, 0, "a clean end, not a crash");
  assert.equal((await channel(g.goal_id)).filter((m) => /reached the max_turns limit/.test(m)).length, 1);
  // A third message is not taken: the agent is not relaunched, the message waits in its inbox.
  await sendOwnerMessage(goal.ownerId, { agentId: a, content: "TURN-THREE please." });
  await new Promise((r) => setTimeout(r, 4000));
  assert.deepEqual(
    [(await runState(g.goal_id, a))?.run_state, (await runState(g.goal_id, a))?.launches],
    ["exited", 1],
  );
  assert.ok(!(await texts()).some((t) => t.includes("must not happen")));
  const pending = await db.read(({ db: d }) =>
    d.message.count({
      where: { recipientAgentId: a, consumedAt: null, content: { contains: "TURN-THREE" } },
    }),
  );
  assert.equal(pending, 1);
  await template("coordinator", noLimits);
});
