// The runner with the claude-code runtime end to end (issue 11): the real server, a real runner process
// (`bin/runner.mjs`, HTTP only), real Claude Code (the Agent SDK's bundled CLI) driven by the stand-in model
// server. A new goal's coordinator is launched with its built-in claude-code template, its inbox is fed to
// it turn by turn over MCP with its own key, and each message is acknowledged once delivered.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { hubTool } from "@/lib/runner/runtimes/claude-code-policy";
import { type ModelServer, startModelServer } from "@/lib/standin/model-server";
import { claudeCodeUnavailable } from "../helpers/claude-code";
import { ROOT, sc, startServer, type TestServer } from "../helpers/server";
import { eventually, events as goalEvents } from "../helpers/teams";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`SKIPPING runner claude-code test: ${unavailable}`);
const skip = unavailable ? `Claude Code cannot start here: ${unavailable}` : false;

let server: TestServer;
let model: ModelServer;
let owner: Client;
let ownerToken: string;
let runner: ChildProcess | undefined;
let db: typeof import("@/lib/db");
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-runner-cc-"));

before(async () => {
  if (unavailable) return;
  [server, model] = await Promise.all([
    startServer({ env: { SWITCHBOARD_RUNNER_LEASE_S: "6", SWITCHBOARD_RUNNER_BACKOFF_MS: "300" } }),
    startModelServer(),
  ]);
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  ownerToken = await server.ownerToken();
  owner = await server.client(ownerToken);
});

/** Stop the current runner (SIGTERM: its agents are stopped cleanly and go back to the queue). */
async function stopRunner() {
  if (runner && runner.exitCode === null && runner.signalCode === null) {
    const exited = new Promise((r) => runner?.once("exit", r));
    runner.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (runner.exitCode === null && runner.signalCode === null) runner.kill("SIGKILL");
  }
  runner = undefined;
}

/** A real runner process (bin/runner.mjs) with `modelEnv` as its model settings and nothing else of ours. */
async function startRunner(name: string, modelEnv: Record<string, string>) {
  await stopRunner();
  const runnerToken = (
    await (await import("@/lib/domain/runner/tokens")).createRunnerToken({ name: `cc-${name}` })
  ).token;
  const home = fs.mkdtempSync(path.join(workDir, "home-"));
  runner = spawn(process.execPath, [path.join(ROOT, "bin/runner.mjs"), "--name", name], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: home,
      SWITCHBOARD_RUNNER_HUB: server.url,
      SWITCHBOARD_RUNNER_TOKEN: runnerToken,
      SWITCHBOARD_RUNNER_WORK_DIR: workDir,
      LOG_LEVEL: process.env.TEST_SERVER_LOG ? "info" : "error",
      ...modelEnv,
    },
    stdio: ["ignore", "ignore", process.env.TEST_SERVER_LOG ? "inherit" : "ignore"],
  });
}

/** Goals of earlier tests are finished first, so that a runner serves only the goal of its test. */
async function finishGoals() {
  await db.write(({ db: d }) =>
    d.goal.updateMany({
      where: { status: { notIn: ["completed", "cancelled"] } },
      data: { status: "completed" },
    }),
  );
}

after(async () => {
  await stopRunner();
  await owner?.close().catch(() => {});
  await db?.disconnect();
  await model?.close();
  await server?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Messages of the agent's inbox not yet acknowledged. */
const pending = (agentId: number) =>
  db.read(({ sql }) =>
    sql.all<{ uid: string }>(
      `SELECT uid FROM "Message" WHERE "recipientAgentId" = ? AND "consumedAt" IS NULL`,
      agentId,
    ),
  );

test("a new goal's coordinator runs as Claude Code: its first inbox message is its first turn, it calls the hub, the next message becomes the next turn, each acknowledged once delivered", {
  skip,
}, async () => {
  const skills = await import("@/lib/domain/skills/skills");
  assert.equal((await skills.getBuiltinSkill("coordinator")).runtime, "claude-code", "the built-in template");

  model.setScript([
    {
      when: { userSays: "GOAL-7731" },
      reply: { text: "Looking at my team.", tools: [{ name: hubTool("whoami") }] },
    },
    { when: { afterTool: hubTool("whoami") }, reply: { text: "Ready to plan." } },
    { when: { userSays: "OWNER-PING-42" }, reply: { text: "Noted, owner." } },
  ]);

  await startRunner("cc1", { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "sk-standin" });

  const g = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Ship the parser", description: "A goal run by Claude Code." },
    }),
  );
  const coord = g.coordinator_agent_id;
  const goal = await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id: g.goal_id } }));
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  // create_goal posts the goal to the goal's channel, not to the coordinator's inbox (see the report /
  // docs/runner.md "Not done"): the owner hands it the goal as its first inbox message.
  await sendOwnerMessage(goal.ownerId, {
    agentId: coord,
    content: "GOAL-7731 ship the parser: plan it and report back.",
  });

  // The first inbox message is the session's first turn, rendered with who sent it and its kind.
  const first = await model.waitForRequest((r) => r.lastUserText.includes("GOAL-7731"), 40_000);
  assert.match(first.lastUserText, /\[Switchboard message \S+ · from .+ · kind: /);
  assert.ok(!first.tools.includes(hubTool("read_inbox")), "read_inbox is the runner's, not the agent's");

  // The scripted model called the hub with the coordinator's own key; the runner forwarded the events.
  const evs = () => goalEvents(server, ownerToken, g.goal_id);
  const rows = await eventually(
    async () => {
      const r = await evs();
      return r.some((e) => e.event === "agent_text" && String(e.data.text).includes("Ready to plan."))
        ? r
        : undefined;
    },
    60_000,
    "the coordinator's answer after whoami",
  );
  const started = rows.filter((e) => e.event === "agent_started" && e.agent_id === coord);
  assert.equal(started[0]?.data.runtime, "claude-code");
  assert.ok(rows.some((e) => e.event === "tool_called" && e.data.tool === hubTool("whoami")));
  const result = rows.find((e) => e.event === "tool_result" && e.agent_id === coord);
  assert.ok(result, "whoami answered");
  assert.match(JSON.stringify(result.data), new RegExp(`agent_id[^0-9]*${coord}\\b`));

  // The first message was acknowledged once delivered (nothing pending).
  await eventually(async () => (await pending(coord)).length === 0, 30_000, "the first message acked");

  // The owner writes: the message is the session's next turn, then acknowledged.
  await sendOwnerMessage(goal.ownerId, { agentId: coord, content: "OWNER-PING-42 how is it going?" });
  const [sent] = await pending(coord);
  assert.ok(sent, "the owner message is pending");
  const turn = await model.waitForRequest((r) => r.lastUserText.includes("OWNER-PING-42"), 60_000);
  assert.match(turn.lastUserText, /from the owner \(__user__\) · kind: /);
  assert.ok(
    turn.messages.some((m) => JSON.stringify(m.content).includes("GOAL-7731")),
    "the same session",
  );
  await eventually(async () => (await pending(coord)).length === 0, 30_000, "the owner message acked");
  const inputs = (await evs()).filter((e) => e.event === "agent_input" && e.agent_id === coord);
  // Recorded once, when the session took it as its turn (turn.input), not again at the acknowledgement.
  assert.equal(inputs.filter((e) => e.data.message_id === sent.uid).length, 1, JSON.stringify(inputs));

  // The runner killed -9: its Claude Code process dies with it (docs/runner.md, "Orphans").
  const dir = path.join(workDir, ".runner");
  const record = fs.readdirSync(dir).find((f) => f.startsWith(`${runner?.pid}-`) && f.endsWith(".json"));
  assert.ok(record, "the runner's child record");
  const rec = JSON.parse(fs.readFileSync(path.join(dir, record), "utf8")) as {
    children: Record<string, { pid: number }>;
  };
  const claudePid = rec.children[String(coord)]?.pid;
  assert.ok(claudePid && alive(claudePid), JSON.stringify(rec));
  runner?.kill("SIGKILL");
  await eventually(async () => !alive(claudePid), 15_000, "Claude Code gone with its runner");
});

/**
 * A launch that cannot work: Claude Code answers the turn itself ("Not logged in", or the model API's 401)
 * instead of crashing. The runner reports it as a failed launch: the message stays pending for the next
 * launch, the crash count and backoff apply (three launches, then `crashed`), and the owner is told why.
 */
async function launchFails(runnerName: string, modelEnv: Record<string, string>, expected: RegExp) {
  await finishGoals();
  await startRunner(runnerName, modelEnv);
  const g = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: {
        title: `No credential (${runnerName})`,
        description: "A launch that cannot reach the model.",
      },
    }),
  );
  const coord = g.coordinator_agent_id;
  const goal = await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id: g.goal_id } }));
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  const sent = await sendOwnerMessage(goal.ownerId, { agentId: coord, content: "START-WORK please." });
  const jobs = await import("@/lib/domain/runner/launch-jobs");
  const state = async () => (await jobs.goalRunStates(g.goal_id)).find((a) => a.agent_id === coord);
  const final = await eventually(
    async () => {
      const s = await state();
      return s?.run_state === "crashed" ? s : undefined;
    },
    90_000,
    "crashed after three failed launches",
  );
  assert.equal(final.launches, 3, "backoff and the crash limit: no spinning");
  assert.match(String(final.last_error), expected);
  const rows = await goalEvents(server, ownerToken, g.goal_id);
  const crashes = rows.filter((e) => e.event === "agent_crashed" && e.agent_id === coord);
  assert.equal(crashes.length, 3);
  for (const c of crashes) {
    assert.equal(c.data.launch_failed, true, JSON.stringify(c.data));
    assert.match(String(c.data.error), expected);
  }
  // Not acknowledged: its goal (posted by create_goal) and the owner's message stay in the inbox for the
  // next launch; nothing was consumed.
  const left = (await pending(coord)).map((m) => m.uid);
  assert.ok(left.includes(sent.message_id), JSON.stringify(left));
  assert.equal(left.length, 2, JSON.stringify(left));
  // Each launch's failed turn shows its input in the transcript (one per launch at most), and consumed
  // nothing: every input shown is still pending.
  const inputs = rows.filter((e) => e.event === "agent_input" && e.agent_id === coord);
  assert.ok(inputs.length >= 1 && inputs.length <= 3, JSON.stringify(inputs));
  for (const i of inputs) assert.ok(left.includes(String(i.data.message_id)), JSON.stringify(i));
  // The owner's one notice says why.
  const res = await server.fetch(`/api/goals/${g.goal_id}/messages`, {
    headers: { Authorization: `Bearer ${ownerToken}` },
  });
  const msgs = (await res.json()) as { messages: { content: string }[] };
  const notices = msgs.messages.filter((m) => /crashed 3 times in a row/.test(m.content));
  assert.equal(notices.length, 1);
  assert.match(notices[0]?.content ?? "", expected);
  return rows;
}

test('no model credential: Claude Code\'s "Not logged in" turn is a failed launch, the message stays pending, backoff then crashed', {
  skip,
}, async () => {
  // No ANTHROPIC_* at all, an empty HOME and each agent's own empty config directory.
  await launchFails("nocred", {}, /Not logged in/);
});

test("the model API answers 401: a failed launch at once (not minutes of retries), the message stays pending", {
  skip,
}, async () => {
  const refusing = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method !== "POST") return res.writeHead(200).end();
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "authentication_error", message: "invalid x-api-key" },
        }),
      );
    });
  });
  await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", () => r()));
  const port = (refusing.address() as { port: number }).port;
  try {
    await launchFails(
      "refused",
      { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: "sk-wrong" },
      /401.*authentication_failed/,
    );
  } finally {
    refusing.close();
  }
});

test("the template's permission mode and allowed tools reach Claude Code: an allowed tool runs, another is denied (an event, no prompt); run.cost closes the launch", {
  skip,
}, async () => {
  await finishGoals();
  const skills = await import("@/lib/domain/skills/skills");
  const s = await skills.getBuiltinSkill("coordinator");
  await skills.saveBuiltinSkill({
    name: "coordinator",
    description: s.description,
    system_prompt: s.system_prompt,
    permission_mode: "default",
    allowed_tools: ["Bash"],
  });
  assert.deepEqual((await skills.getBuiltinSkill("coordinator")).allowed_tools, ["Bash"]);
  await startRunner("perm", { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "sk-standin" });
  const g = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Permissions", description: "Template permissions." },
    }),
  );
  const coord = g.coordinator_agent_id;
  const ws = path.join(workDir, `goal-${g.goal_id}`, `agent-${coord}`);
  model.setScript([
    {
      when: { userSays: "PERM-TEST" },
      reply: {
        tools: [{ name: "Bash", input: { command: "touch allowed.txt", description: "make a file" } }],
      },
    },
    {
      when: { afterTool: "Bash" },
      reply: { tools: [{ name: "Write", input: { file_path: path.join(ws, "denied.txt"), content: "no" } }] },
    },
    { when: { afterTool: "Write" }, reply: { text: "PERM-DONE" } },
  ]);
  const goal = await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id: g.goal_id } }));
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  await sendOwnerMessage(goal.ownerId, { agentId: coord, content: "PERM-TEST make the files." });
  const evs = () => goalEvents(server, ownerToken, g.goal_id);
  const rows = await eventually(
    async () => {
      const r = await evs();
      return r.some((e) => e.event === "agent_text" && String(e.data.text).includes("PERM-DONE"))
        ? r
        : undefined;
    },
    60_000,
    "the turn done",
  );
  assert.equal(fs.existsSync(path.join(ws, "allowed.txt")), true, "Bash was allowed by the template");
  assert.equal(fs.existsSync(path.join(ws, "denied.txt")), false, "Write was not");
  const denied = rows.filter((e) => e.event === "tool_denied" && e.agent_id === coord);
  assert.deepEqual(
    denied.map((e) => [e.data.tool, e.data.reason]),
    [["Write", "permission.denied"]],
  );

  // The runner stops: the launch ends, and run.cost carries its totals (the turns' usage).
  await stopRunner();
  const all = await eventually(
    async () => {
      const r = await evs();
      return r.some((e) => e.event === "run.cost" && e.agent_id === coord) ? r : undefined;
    },
    30_000,
    "run.cost",
  );
  const usage = all.filter((e) => e.event === "turn.usage" && e.agent_id === coord);
  assert.ok(usage.length >= 1);
  const [cost] = all.filter((e) => e.event === "run.cost" && e.agent_id === coord);
  assert.equal(cost?.data.reason, "stopped");
  assert.equal(cost?.data.launch, 1);
  assert.equal(cost?.data.reports, usage.length);
  const sum = (k: string) => usage.reduce((n, e) => n + Number(e.data[k]), 0);
  assert.equal(cost?.data.input_tokens, sum("input_tokens"));
  assert.equal(cost?.data.output_tokens, sum("output_tokens"));
  assert.ok(Math.abs(Number(cost?.data.cost_usd) - sum("cost_usd")) < 1e-5, JSON.stringify(cost?.data));
  assert.ok(Number(cost?.data.cost_usd) > 0);
});
