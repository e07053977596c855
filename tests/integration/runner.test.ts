// The runner (issue 11) end to end: the real server, real runner processes (`bin/runner.mjs`, HTTP only,
// no database), and a small agent script as the `command` runtime (tests/helpers/agent-script.mjs).
// Short leases and backoff come from the environment; every wait is for a condition, never a fixed sleep.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ROOT, sc, startServer, type TestServer } from "../helpers/server";
import { type EventRow, eventually, events as goalEvents, task } from "../helpers/teams";

const SCRIPT = path.join(ROOT, "tests/helpers/agent-script.mjs");
let server: TestServer;
let owner: Client;
let ownerToken: string;
let runnerToken: string;
let db: typeof import("@/lib/db");
let jobs: typeof import("@/lib/domain/runner/launch-jobs");
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-runner-work-"));
const runners = new Map<string, ChildProcess>();

before(async () => {
  server = await startServer({
    env: { SWITCHBOARD_RUNNER_LEASE_S: "6", SWITCHBOARD_RUNNER_BACKOFF_MS: "100" },
  });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  jobs = await import("@/lib/domain/runner/launch-jobs");
  const skills = await import("@/lib/domain/skills/skills");
  // Templates are data: the coordinator and engineer templates run the agent script.
  for (const name of ["coordinator", "engineer"]) {
    const s = await skills.getBuiltinSkill(name);
    await skills.saveBuiltinSkill({
      name,
      description: s.description,
      system_prompt: s.system_prompt,
      runtime: "command",
      command: { cmd: process.execPath, args: [SCRIPT] },
      env: { AGENT_SCRIPT: "1" },
    });
  }
  runnerToken = (await (await import("@/lib/domain/runner/tokens")).createRunnerToken({ name: "test" }))
    .token;
  ownerToken = await server.ownerToken();
  owner = await server.client(ownerToken);
});

after(async () => {
  for (const r of runners.values()) if (r.exitCode === null && r.signalCode === null) r.kill("SIGKILL");
  // Agent programs of runners killed with -9 (their keys are revoked; they exit on their own too).
  for (const pid of agentPids()) killQuietly(pid);
  await owner?.close().catch(() => {});
  await db?.disconnect();
  await server?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function agentPids(): number[] {
  const out: number[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "pid") out.push(Number(fs.readFileSync(p, "utf8")));
    }
  };
  if (fs.existsSync(workDir)) walk(workDir);
  return out;
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A runner process: the hub's URL and a runner token, no DATABASE_URL. */
function startRunner(name: string, maxAgents = 25): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/runner.mjs"), "--name", name], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SWITCHBOARD_RUNNER_HUB: server.url,
      SWITCHBOARD_RUNNER_TOKEN: runnerToken,
      SWITCHBOARD_RUNNER_WORK_DIR: workDir,
      SWITCHBOARD_RUNNER_MAX_AGENTS: String(maxAgents),
      LOG_LEVEL: process.env.TEST_SERVER_LOG ? "info" : "error",
    },
    stdio: ["ignore", "ignore", process.env.TEST_SERVER_LOG ? "inherit" : "ignore"],
  });
  runners.set(name, child);
  return child;
}

async function stopRunner(name: string, signal: NodeJS.Signals = "SIGTERM") {
  const r = runners.get(name);
  if (!r || r.exitCode !== null || r.signalCode !== null) return;
  const exited = new Promise((res) => r.once("exit", (code, sig) => res(code ?? sig)));
  r.kill(signal);
  return exited;
}

async function createGoal(title: string) {
  return sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title, description: "A goal run by the runner test." },
    }),
  );
}

/** The agent program's pid, once it has written it into its workspace. */
async function pidOf(goalId: number, agentId: number): Promise<number> {
  const file = path.join(workDir, `goal-${goalId}`, `agent-${agentId}`, "pid");
  return eventually(
    async () => (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : undefined),
    20_000,
    "pid",
  );
}

const evs = (goalId: number) => goalEvents(server, ownerToken, goalId);
const named = (rows: EventRow[], name: string, agentId: number) =>
  rows.filter((e) => e.event === name && e.agent_id === agentId);
async function runState(goalId: number, agentId: number) {
  return (await jobs.goalRunStates(goalId)).find((a) => a.agent_id === agentId);
}

test("quarantined agent and paused goal: nothing launched; a new goal's coordinator is launched (and a resumed goal's)", async () => {
  // No runner yet: set up a paused goal and a goal whose coordinator is quarantined, then a normal one.
  const paused = await createGoal("Paused goal");
  const quarantined = await createGoal("Quarantined goal");
  await db.write(async ({ db: d }) => {
    await d.goal.update({ where: { id: paused.goal_id }, data: { status: "paused" } });
    await d.agent.update({
      where: { id: quarantined.coordinator_agent_id },
      data: { quarantinedAt: new Date() },
    });
  });
  const normal = await createGoal("Normal goal");
  startRunner("r1");
  // The coordinator of the normal goal is launched: agent_started, then its own output (it called whoami
  // over MCP with the key the runner fetched for it).
  const rows = await eventually(
    async () => {
      const r = await evs(normal.goal_id);
      return r.some((e) => e.event === "agent_output" && /hello from coordinator/.test(String(e.data.line)))
        ? r
        : undefined;
    },
    30_000,
    "the coordinator's first output",
  );
  const started = named(rows, "agent_started", normal.coordinator_agent_id);
  assert.equal(started.length, 1);
  assert.equal(started[0]?.data.runtime, "command");
  assert.match(String(started[0]?.data.runner), /:r1$/);
  assert.equal((await runState(normal.goal_id, normal.coordinator_agent_id))?.run_state, "running");
  // The paused goal's and the quarantined agent's coordinators were never taken.
  for (const g of [paused, quarantined]) {
    assert.deepEqual(named(await evs(g.goal_id), "agent_started", g.coordinator_agent_id), []);
    const s = await runState(g.goal_id, g.coordinator_agent_id);
    assert.equal(s?.run_state, "queued");
    assert.equal(s?.launches, 0);
  }
  // Desired state: the goal resumes, its coordinator is launched.
  await db.write(({ db: d }) => d.goal.update({ where: { id: paused.goal_id }, data: { status: "active" } }));
  await eventually(
    async () => (await runState(paused.goal_id, paused.coordinator_agent_id))?.run_state === "running",
    20_000,
    "the resumed goal's coordinator",
  );
  assert.equal((await runState(quarantined.goal_id, quarantined.coordinator_agent_id))?.launches, 0);
});

test("a spawned agent is launched; its terminate sentinel consumed → the runner stops its process", async () => {
  const g = await createGoal("Team goal");
  // A key of our own for the coordinator once it runs (its launch revokes the keys issued before it).
  await eventually(
    async () => (await runState(g.goal_id, g.coordinator_agent_id))?.run_state === "running",
    20_000,
    "the coordinator running",
  );
  const coordKey = await server.agentKey(g.coordinator_agent_id);
  const coord = await server.client(coordKey);
  const call = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) =>
    sc<T>(await coord.callTool({ name, arguments: args }));
  await call("declare_plan", { tasks: [task("a")] });
  const { agent_id } = await call<{ agent_id: string }>("spawn_agent", { task_id: "a" });
  const child = Number(agent_id);
  await eventually(
    async () => (await runState(g.goal_id, child))?.run_state === "running",
    20_000,
    "the spawned agent running",
  );
  // Its first message (the task assignment) reached it through its own read_inbox.
  await eventually(
    async () =>
      named(await evs(g.goal_id), "agent_output", child).some((e) =>
        /message task_assignment/.test(String(e.data.line)),
      ),
    20_000,
    "the task assignment read",
  );
  const pid = await pidOf(g.goal_id, child);
  assert.ok(alive(pid));
  // The agent asks for review, the leader approves: a terminate sentinel, which the agent reads.
  await call("send_message", { to: agent_id, content: "SIGNAL_REVIEW please" });
  await eventually(
    async () => {
      const r = await coord.callTool({ name: "terminate_child", arguments: { agent_id } });
      return !r.isError;
    },
    20_000,
    "terminate_child accepted",
  );
  // The next lease renewal answers "stop": the process ends, the launch is reported exited.
  await eventually(async () => !alive(pid), 20_000, "the agent's process ended");
  await eventually(
    async () => (await runState(g.goal_id, child))?.run_state === "exited",
    20_000,
    "run state exited",
  );
  const rows = await evs(g.goal_id);
  assert.ok(named(rows, "agent_output", child).some((e) => /stopping on SIGTERM/.test(String(e.data.line))));
  assert.equal(named(rows, "agent_completed", child).length, 1, "one agent_completed (terminate consumed)");
  await coord.close();
});

test("crash → restart with backoff → `crashed` after 3 in a row, and one notice", async () => {
  const g = await createGoal("[crash] Crashing goal");
  const a = g.coordinator_agent_id;
  await eventually(async () => (await runState(g.goal_id, a))?.run_state === "crashed", 30_000, "crashed");
  const rows = await evs(g.goal_id);
  const crashes = named(rows, "agent_crashed", a);
  assert.deepEqual(
    crashes.map((e) => [e.data.crashes_in_a_row, e.data.exit_code, e.data.restart_in_ms]),
    [
      [1, 2, 100],
      [2, 2, 200],
      [3, 2, null],
    ],
  );
  assert.equal(named(rows, "agent_started", a).length, 3);
  assert.equal((await runState(g.goal_id, a))?.launches, 3);
  assert.match(String((await runState(g.goal_id, a))?.last_error), /crashing on purpose|exit code 2/);
  // Each launch closes with its totals (this agent reported no usage).
  assert.deepEqual(
    named(rows, "run.cost", a).map((e) => [e.data.launch, e.data.reason, e.data.tokens, e.data.cost_usd]),
    [
      [1, "crashed", 0, 0],
      [2, "crashed", 0, 0],
      [3, "crashed", 0, 0],
    ],
  );
  const res = await server.fetch(`/api/goals/${g.goal_id}/messages`, {
    headers: { Authorization: `Bearer ${ownerToken}` },
  });
  const msgs = (await res.json()) as { messages: { content: string }[] };
  assert.equal(msgs.messages.filter((m) => /crashed 3 times in a row/.test(m.content)).length, 1);
  // The owner restarts it: queued again with its crash count cleared (and it crashes again, once more).
  const restarted = await jobs.restartAgent(a);
  assert.equal(restarted.restarted, true);
  await eventually(async () => (await runState(g.goal_id, a))?.launches === 4, 20_000, "relaunched");
});

test("two runners, 20 launches: each agent launched exactly once", async () => {
  startRunner("r2");
  const goals = [];
  for (let i = 0; i < 20; i++) goals.push(await createGoal(`[exit] Burst goal ${i}`));
  for (const g of goals) {
    await eventually(
      async () => (await runState(g.goal_id, g.coordinator_agent_id))?.run_state === "exited",
      60_000,
      `goal ${g.goal_id} exited`,
    );
  }
  const byRunner = new Map<string, number>();
  for (const g of goals) {
    const s = await runState(g.goal_id, g.coordinator_agent_id);
    const rows = await evs(g.goal_id);
    const started = named(rows, "agent_started", g.coordinator_agent_id);
    assert.equal(s?.launches, 1, JSON.stringify(rows.filter((e) => e.agent_id === g.coordinator_agent_id)));
    assert.equal(started.length, 1);
    const r = String(started[0]?.data.runner);
    byRunner.set(r, (byRunner.get(r) ?? 0) + 1);
  }
  assert.equal(
    [...byRunner.values()].reduce((x, y) => x + y, 0),
    20,
  );
});

test("a runner killed -9: its agents come back on the other runner once the lease expires", async () => {
  // Only "doomed" runs: the other runners stop cleanly (their agents go back to the queue).
  assert.equal(await stopRunner("r1"), 0);
  assert.equal(await stopRunner("r2"), 0);
  startRunner("doomed");
  const g = await createGoal("Survivor goal");
  const a = g.coordinator_agent_id;
  await eventually(
    async () => {
      const s = await runState(g.goal_id, a);
      return s?.run_state === "running" && /:doomed$/.test(s.runner ?? "");
    },
    20_000,
    "running on doomed",
  );
  const firstPid = await pidOf(g.goal_id, a);
  startRunner("heir");
  await stopRunner("doomed", "SIGKILL");
  const s = await eventually(
    async () => {
      const x = await runState(g.goal_id, a);
      return x?.run_state === "running" && /:heir$/.test(x.runner ?? "") ? x : undefined;
    },
    30_000,
    "running on heir",
  );
  assert.equal(s.launches, 2);
  const started = named(await evs(g.goal_id), "agent_started", a);
  assert.deepEqual(
    started.map((e) => String(e.data.runner).split(":")[1]),
    ["doomed", "heir"],
  );
  // The dead runner's launch is closed when the next one takes the agent.
  assert.deepEqual(
    named(await evs(g.goal_id), "run.cost", a).map((e) => [e.data.launch, e.data.reason]),
    [[1, "lease_expired"]],
  );
  // The orphan of the dead runner lost its key at the relaunch and ends on its own.
  await eventually(async () => !alive(firstPid), 20_000, "the orphaned agent ended");
});

test("a secret the owner supplied is in the launched program's environment (a file secret as a 0600 file), and in no event or message", async () => {
  const { createHash } = await import("node:crypto");
  const value = `canary-${Math.random().toString(36).slice(2)}-value`;
  // A binary file secret: NUL and non-UTF-8 bytes must arrive byte for byte.
  const fileBytes = Buffer.concat([Buffer.from([0, 255, 254, 0, 10, 13]), Buffer.from(value)]);
  const skills = await import("@/lib/domain/skills/skills");
  const s = await skills.getBuiltinSkill("coordinator");
  await skills.saveBuiltinSkill({
    name: "coordinator",
    description: s.description,
    system_prompt: s.system_prompt,
    runtime: "command",
    command: { cmd: process.execPath, args: [SCRIPT] },
    env: { AGENT_SCRIPT: "1", PROBE_SECRET_NAME: "DEPLOY_TOKEN", PROBE_SECRET_FILE: "SERVICE_ACCOUNT" },
  });
  const me = sc<{ user_id: number }>(await owner.callTool({ name: "whoami", arguments: {} }));
  const put = await server.fetch(`/api/secrets/user/${me.user_id}/DEPLOY_TOKEN`, {
    method: "PUT",
    headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
    body: JSON.stringify({ value }),
  });
  assert.equal(put.status, 200, await put.text());
  const putFile = await server.fetch(`/api/secrets/user/${me.user_id}/SERVICE_ACCOUNT`, {
    method: "PUT",
    headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
    body: JSON.stringify({ file_base64: fileBytes.toString("base64") }),
  });
  assert.equal(putFile.status, 200, await putFile.text());
  const goal = await createGoal("Goal with a secret");
  if (!runners.has("secrets")) startRunner("secrets");
  const expected = `secret DEPLOY_TOKEN sha256=${createHash("sha256").update(value).digest("hex")}`;
  const rows = await eventually(
    async () => {
      const r = await evs(goal.goal_id);
      const lines = r.filter((e) => e.event === "agent_output").map((e) => String(e.data.line));
      return lines.includes(expected) && lines.some((l) => l.startsWith("file SERVICE_ACCOUNT "))
        ? r
        : undefined;
    },
    30_000,
    "the coordinator's secret probes",
  );
  const fileLine = rows
    .map((e) => String(e.data.line ?? ""))
    .find((l) => l.startsWith("file SERVICE_ACCOUNT "));
  const fileHash = createHash("sha256").update(fileBytes).digest("hex");
  assert.match(
    fileLine ?? "",
    new RegExp(`^file SERVICE_ACCOUNT sha256=${fileHash} mode=600 dir=700 path=/`),
  );
  const filePath = (fileLine ?? "").split(" path=")[1] ?? "";
  assert.ok(!filePath.includes(`goal-${goal.goal_id}`), "not in the agent's workspace");
  assert.ok(!JSON.stringify(rows).includes(value), "the value is in no event");
  // Nor in the coordinator's transcript (REST, where the owner reads it).
  const transcript = await server.fetch(
    `/api/goals/${goal.goal_id}/agents/${goal.coordinator_agent_id}/transcript?limit=500`,
    { headers: { authorization: `Bearer ${ownerToken}` } },
  );
  const transcriptText = await transcript.text();
  assert.equal(transcript.status, 200, transcriptText);
  assert.ok(transcriptText.includes("sha256="), "the transcript has the probe's line");
  assert.ok(!transcriptText.includes(value), "the value is not in the transcript");
  const stored = await db.read(({ sql }) =>
    sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM "Message" WHERE content LIKE ?`, `%${value}%`),
  );
  assert.equal(Number(stored[0]?.n), 0, "the value is in no message");
  // Whichever runner launched it (an earlier test's runner may still be up) removes the file when it ends.
  const launchedBy = named(rows, "agent_started", goal.coordinator_agent_id).map(
    (e) => String(e.data.runner).split(":")[1] ?? "",
  );
  for (const name of new Set(["secrets", ...launchedBy])) await stopRunner(name);
  assert.ok(!fs.existsSync(filePath), "the file secret's directory is removed when the launch ends");
});

/** The runner's child records (lib/runner/orphans.ts): `<work dir>/.runner/<runner pid>-<random>.json`. */
const recordsOf = (runnerPid: number) =>
  fs
    .readdirSync(path.join(workDir, ".runner"))
    .filter((f) => f.startsWith(`${runnerPid}-`) && f.endsWith(".json"))
    .map((f) => path.join(workDir, ".runner", f));

/** The runner's orphan reaper: the process whose command line names its record. */
function reaperOf(runnerPid: number): number | undefined {
  const [record] = recordsOf(runnerPid);
  if (!record) return undefined;
  for (const p of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").includes(record)) return Number(p);
    } catch {}
  }
  return undefined;
}

test("a runner killed -9: its agent program is killed with it (its reaper), and a new runner kills leftovers at start", {
  skip: process.platform !== "linux" ? "reads /proc" : false,
}, async () => {
  for (const name of runners.keys()) await stopRunner(name);
  // 1. The runner dies; its reaper kills the agent it ran. The agent ignores SIGTERM and never calls the
  // hub again, so neither a stop nor a revoked key would end it.
  const mortal = startRunner("mortal");
  const g = await createGoal("[stubborn] Orphan goal");
  const a = g.coordinator_agent_id;
  await eventually(async () => (await runState(g.goal_id, a))?.run_state === "running", 20_000, "running");
  const pid = await pidOf(g.goal_id, a);
  await eventually(
    async () =>
      named(await evs(g.goal_id), "agent_output", a).some((e) => /stubborn/.test(String(e.data.line))),
    20_000,
    "the agent settled",
  );
  assert.ok(alive(pid));
  const reaper = await eventually(async () => reaperOf(mortal.pid ?? 0), 10_000, "the reaper");
  await stopRunner("mortal", "SIGKILL");
  await eventually(async () => !alive(pid), 10_000, "the orphan killed by the reaper");
  await eventually(async () => !alive(reaper), 10_000, "the reaper exits");
  assert.deepEqual(recordsOf(mortal.pid ?? 0), [], "record removed");

  // 2. The runner and its reaper both die (kill -9 of both): the next runner on this work directory kills
  // the leftover before it takes any job.
  const doomed = startRunner("doomed2");
  const again = await eventually(
    async () => {
      const s = await runState(g.goal_id, a);
      return s?.run_state === "running" && /:doomed2$/.test(s.runner ?? "") ? s : undefined;
    },
    30_000,
    "relaunched on doomed2",
  );
  assert.equal(again.launches, 2);
  const pid2 = await eventually(
    async () => {
      const p = await pidOf(g.goal_id, a);
      return p !== pid && alive(p) ? p : undefined;
    },
    20_000,
    "the second agent program",
  );
  const reaper2 = await eventually(async () => reaperOf(doomed.pid ?? 0), 10_000, "the reaper");
  killQuietly(reaper2);
  await eventually(async () => !alive(reaper2), 10_000, "reaper gone");
  await stopRunner("doomed2", "SIGKILL");
  assert.ok(alive(pid2), "nothing else kills it");
  startRunner("phoenix");
  await eventually(async () => !alive(pid2), 20_000, "the leftover killed by the next runner at start");
  await stopRunner("phoenix");
});
