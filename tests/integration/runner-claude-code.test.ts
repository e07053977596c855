// The runner with the claude-code runtime end to end (issue 11): the real server, a real runner process
// (`bin/runner.mjs`, HTTP only), real Claude Code (the Agent SDK's bundled CLI) driven by the stand-in model
// server. A new goal's coordinator is launched with its built-in claude-code template, its inbox is fed to
// it turn by turn over MCP with its own key, and each message is acknowledged once delivered.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
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
    startServer({ env: { SWITCHBOARD_RUNNER_LEASE_S: "6" } }),
    startModelServer(),
  ]);
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  ownerToken = await server.ownerToken();
  owner = await server.client(ownerToken);
});

after(async () => {
  if (runner && runner.exitCode === null && runner.signalCode === null) {
    const exited = new Promise((r) => runner?.once("exit", r));
    runner.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (runner.exitCode === null && runner.signalCode === null) runner.kill("SIGKILL");
  }
  await owner?.close().catch(() => {});
  await db?.disconnect();
  await model?.close();
  await server?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

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
  assert.equal((await skills.getSkill("coordinator")).runtime, "claude-code", "the built-in template");

  model.setScript([
    {
      when: { userSays: "GOAL-7731" },
      reply: { text: "Looking at my team.", tools: [{ name: hubTool("whoami") }] },
    },
    { when: { afterTool: hubTool("whoami") }, reply: { text: "Ready to plan." } },
    { when: { userSays: "OWNER-PING-42" }, reply: { text: "Noted, owner." } },
  ]);

  const runnerToken = (await (await import("@/lib/domain/runner/tokens")).createRunnerToken({ name: "cc" }))
    .token;
  runner = spawn(process.execPath, [path.join(ROOT, "bin/runner.mjs"), "--name", "cc1"], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SWITCHBOARD_RUNNER_HUB: server.url,
      SWITCHBOARD_RUNNER_TOKEN: runnerToken,
      SWITCHBOARD_RUNNER_WORK_DIR: workDir,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-standin",
      LOG_LEVEL: process.env.TEST_SERVER_LOG ? "info" : "error",
    },
    stdio: ["ignore", "ignore", process.env.TEST_SERVER_LOG ? "inherit" : "ignore"],
  });

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
  assert.ok(
    inputs.some((e) => e.data.message_id === sent.uid),
    JSON.stringify(inputs),
  );
});
