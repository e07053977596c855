// The claude-code runtime with real parts: real Claude Code (the Agent SDK's bundled CLI) driven by the
// stand-in model server, connected to the real hub over HTTP with the agent's own key.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { claudeCodeRuntime } from "@/lib/runner/runtimes/claude-code";
import {
  ASK_USER_QUESTION_REDIRECTED,
  DISALLOWED_ALIAS_DENIED,
  hubTool,
  PERMISSION_DENIED,
} from "@/lib/runner/runtimes/claude-code-policy";
import type { AgentLaunch } from "@/lib/runner/runtimes/types";
import { type ModelServer, type Step, startModelServer } from "@/lib/standin/model-server";
import { claudeCodeUnavailable, collect, is, removeWorkspaces, tempWorkspace } from "../helpers/claude-code";
import { goalWithAgents, sc, startServer, type TestServer } from "../helpers/server";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`SKIPPING claude-code runtime tests: ${unavailable}`);
const skip = unavailable ? `Claude Code cannot start here: ${unavailable}` : false;

type Inbox = { messages: { from: string; content: string }[] };

let server: TestServer;
let model: ModelServer;
let team: Awaited<ReturnType<typeof goalWithAgents>>;
before(async () => {
  if (unavailable) return;
  [server, model] = await Promise.all([startServer(), startModelServer()]);
  team = await goalWithAgents(server, 1);
});
after(async () => {
  removeWorkspaces();
  await model?.close();
  await server?.stop();
});

const runtime = () =>
  claudeCodeRuntime({
    baseEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-standin",
    },
    stopGraceMs: 20_000,
  });

function launch(over: Partial<AgentLaunch> = {}): AgentLaunch {
  const agent = team.agents[1];
  assert.ok(agent);
  return {
    agentId: Number(agent.id),
    goalId: team.goal.goal_id,
    name: "agent-0",
    role: "engineer",
    mcpUrl: `${server.url}/mcp`,
    apiKey: agent.key,
    systemPrompt: "You are agent-0, an engineer on a Switchboard team.",
    model: "claude-sonnet-4-5",
    workspace: tempWorkspace(),
    env: {},
    ...over,
  };
}

test("a session calls the hub with the agent's key, takes a delivered message as a turn, reports usage, stops cleanly", {
  skip,
}, async () => {
  const coordinator = team.agents[0];
  assert.ok(coordinator);
  const steps: Step[] = [
    {
      when: { userSays: "TASK-1" },
      reply: { text: "Checking who I am.", tools: [{ name: hubTool("whoami") }] },
    },
    {
      when: { afterTool: hubTool("whoami") },
      reply: {
        tools: [
          { name: hubTool("send_message"), input: { to: coordinator.id, content: "hello from agent-0" } },
        ],
      },
    },
    { when: { afterTool: hubTool("send_message") }, reply: { text: "Sent." } },
    {
      when: { userSays: "TURN-2" },
      reply: {
        text: "Second turn.",
        usage: {
          input_tokens: 1234,
          output_tokens: 56,
          cache_read_input_tokens: 700,
          cache_creation_input_tokens: 89,
        },
      },
    },
  ];
  model.setScript(steps);
  const session = await runtime().start(launch());
  assert.equal(session.fedByRunner, true);
  const ev = collect(session);
  await session.deliver("TASK-1: introduce yourself to your leader.");

  const started = await ev.until(is("session"));
  assert.match(started.sessionId, /^[0-9a-f-]{36}$/);
  const whoami = await ev.until(is("tool_called", (e) => e.name === hubTool("whoami")));
  const who = await ev.until(is("tool_result", (e) => e.toolUseId === whoami.toolUseId));
  assert.equal(who.isError, false, who.content);
  assert.match(who.content, new RegExp(`"agent_id":\\s*"?${team.agents[1]?.id}`));
  await ev.until(is("assistant_text", (e) => e.text === "Sent."));
  const firstEnd = await ev.until(is("turn.end"));
  assert.equal(firstEnd.isError, false);

  // The hub saw the call: the message is in the coordinator's inbox, from this agent.
  const inbox = sc<Inbox>(await coordinator.client.callTool({ name: "read_inbox", arguments: {} }));
  assert.ok(
    inbox.messages.some((m) => m.content === "hello from agent-0" && m.from === team.agents[1]?.id),
    JSON.stringify(inbox),
  );

  // The model was offered the hub's tools, without read_inbox (the runner feeds the inbox) and without
  // Claude Code's own messaging and sub-agent tools.
  const first = model.requests.find((r) => r.lastUserText.includes("TASK-1"));
  assert.ok(first, "the first turn reached the model");
  assert.ok(first.tools.includes(hubTool("whoami")) && first.tools.includes(hubTool("send_message")));
  for (const hidden of [hubTool("read_inbox"), "SendMessage", "Agent", "Task", "TaskCreate", "TodoWrite"]) {
    assert.ok(!first.tools.includes(hidden), `${hidden} offered`);
  }
  assert.equal(first.system.includes("You are agent-0"), true);

  // A delivered message becomes the next turn in the same session; its usage is the stand-in's counts.
  const mark = ev.events.length;
  await session.deliver("TURN-2: anything new?");
  const req = await model.waitForRequest((r) => r.lastUserText.includes("TURN-2"));
  assert.ok(
    req.messages.some((m) => JSON.stringify(m.content).includes("TASK-1")),
    "same conversation",
  );
  const usage = await ev.until(is("turn.usage"), mark);
  assert.deepEqual(
    {
      model: usage.model,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
    },
    {
      model: "claude-sonnet-4-5",
      inputTokens: 1234,
      outputTokens: 56,
      cacheReadTokens: 700,
      cacheWriteTokens: 89,
    },
  );
  assert.ok((usage.costUsd ?? 0) > 0, "list-price cost of the turn");
  await ev.until(is("turn.end"), mark);
  assert.equal(ev.events.filter((e) => e.type === "session").length, 1, "one session");

  await session.stop();
  await ev.done;
  const last = ev.events.at(-1);
  assert.deepEqual(last, { type: "exit", code: 0, signal: null });
  await assert.rejects(session.deliver("too late"), /ended/);
});

test("AskUserQuestion is redirected to ask_user, Claude Code's own team tools and unallowed tools are denied, never prompted", {
  skip,
}, async () => {
  model.setScript([
    {
      when: { userSays: "ASK" },
      reply: {
        tools: [
          {
            name: "AskUserQuestion",
            input: {
              questions: [
                {
                  question: "Which database?",
                  header: "DB",
                  options: [
                    { label: "SQLite", description: "one file" },
                    { label: "PostgreSQL", description: "a server" },
                  ],
                  multiSelect: false,
                },
              ],
            },
          },
        ],
      },
    },
    {
      when: { afterTool: "AskUserQuestion" },
      reply: { tools: [{ name: "SendMessage", input: { to: "agent-1", message: "hi" } }] },
    },
    {
      when: { afterTool: "SendMessage" },
      reply: { tools: [{ name: "Bash", input: { command: "touch pwned", description: "make a file" } }] },
    },
    { when: { afterTool: "Bash" }, reply: { tools: [{ name: hubTool("whoami") }] } },
    { when: { afterTool: hubTool("whoami") }, reply: { text: "Understood." } },
  ]);
  const workspace = tempWorkspace();
  const session = await runtime().start(
    launch({ workspace, permissionMode: "dontAsk", allowedTools: ["Read"] }),
  );
  const ev = collect(session);
  await session.deliver("ASK the owner which database to use.");

  const denied = await ev.until(is("tool_denied", (e) => e.name === "AskUserQuestion"));
  assert.equal(denied.reason, ASK_USER_QUESTION_REDIRECTED);
  const asked = ev.events.find(is("tool_called", (e) => e.name === "AskUserQuestion"));
  const redirect = await ev.until(is("tool_result", (e) => e.toolUseId === asked?.toolUseId));
  assert.equal(redirect.isError, true);
  assert.match(redirect.content, /mcp__switchboard__ask_user/);
  // The model reads the redirect in its next request.
  const next = await model.waitForRequest((r) => r.toolResults.some((t) => t.name === "AskUserQuestion"));
  assert.match(next.toolResults[0]?.text ?? "", /mcp__switchboard__ask_user/);

  const alias = await ev.until(is("tool_denied", (e) => e.name === "SendMessage"));
  assert.equal(alias.reason, DISALLOWED_ALIAS_DENIED);
  // A tool the template does not allow is denied, never prompted; the hub's tools work in every mode.
  const bash = await ev.until(is("tool_denied", (e) => e.name === "Bash"));
  assert.equal(bash.reason, PERMISSION_DENIED);
  assert.equal(fs.existsSync(path.join(workspace, "pwned")), false);
  const whoami = await ev.until(is("tool_called", (e) => e.name === hubTool("whoami")));
  const who = await ev.until(is("tool_result", (e) => e.toolUseId === whoami.toolUseId));
  assert.equal(who.isError, false, who.content);
  await ev.until(is("turn.end"));
  await session.stop();
  await ev.done;
  assert.equal(ev.events.at(-1)?.type, "exit");
});

test("a blocking ask_user from the session waits for the owner's answer and returns it to the model", {
  skip,
}, async () => {
  const coordinator = team.agents[0];
  assert.ok(coordinator);
  const question = {
    question: "Which database?",
    header: "DB",
    multiSelect: false,
    options: [
      { label: "SQLite", description: "one file" },
      { label: "PostgreSQL", description: "a server" },
    ],
  };
  model.setScript([
    {
      when: { userSays: "DECIDE" },
      reply: { tools: [{ name: hubTool("ask_user"), input: { questions: [question] } }] },
    },
    {
      when: { afterTool: hubTool("ask_user") },
      reply: (r) => ({ text: `Going with: ${r.toolResults[0]?.text}` }),
    },
  ]);
  // The coordinator's leader is the owner: its question goes straight to the owner's gateway.
  const session = await runtime().start(launch({ agentId: Number(coordinator.id), apiKey: coordinator.key }));
  const ev = collect(session);
  await session.deliver("DECIDE which database to use.");
  const call = await ev.until(is("tool_called", (e) => e.name === hubTool("ask_user")));

  const auth = { authorization: `Bearer ${team.token}`, "content-type": "application/json" };
  let qid: string | undefined;
  while (!qid) {
    const r = await server.fetch("/api/questions?status=pending", { headers: auth });
    qid = ((await r.json()) as { questions: { qid: string }[] }).questions[0]?.qid;
    if (!qid) await new Promise((res) => setTimeout(res, 100)); // polling for the condition
  }
  assert.equal(
    ev.events.filter(is("tool_result", (e) => e.toolUseId === call.toolUseId)).length,
    0,
    "still waiting",
  );
  const answered = await server.fetch(`/api/questions/${qid}/answer`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ answers: [{ selected_labels: ["SQLite"] }] }),
  });
  assert.equal(answered.status, 200);
  const result = await ev.until(is("tool_result", (e) => e.toolUseId === call.toolUseId));
  assert.equal(result.isError, false, result.content);
  assert.match(result.content, /DB: SQLite/);
  await ev.until(is("assistant_text", (e) => e.text.startsWith("Going with:") && e.text.includes("SQLite")));
  await ev.until(is("turn.end"));
  await session.stop();
  await ev.done;
});

test("kill() ends a session at once, mid-turn", { skip }, async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  model.setScript(async (req) => {
    if (req.lastUserText.includes("HANG")) await held; // the model never answers this turn
    return { text: "ok" };
  });
  const session = await runtime().start(launch());
  const ev = collect(session);
  await session.deliver("HANG here");
  await model.waitForRequest((r) => r.lastUserText.includes("HANG"));
  const t0 = Date.now();
  session.kill();
  await ev.done;
  release();
  assert.ok(Date.now() - t0 < 5_000, `took ${Date.now() - t0} ms`);
  const exit = ev.events.at(-1);
  assert.equal(exit?.type, "exit");
  assert.equal(exit?.type === "exit" && exit.signal, "SIGKILL");
  assert.equal(ev.events.filter((e) => e.type === "turn.end").length, 0);
  await assert.rejects(session.deliver("after the kill"), /ended/);
});

test("a relaunch with resumeSessionId continues the saved conversation, charging only its new turns", {
  skip,
}, async () => {
  const fixedUsage = { input_tokens: 2000, output_tokens: 100 };
  model.setScript([
    {
      when: { userSays: "REMEMBER" },
      reply: { text: "Noted: the code word is PELICAN.", usage: fixedUsage },
    },
    { when: { userSays: "RECALL" }, reply: { text: "PELICAN", usage: fixedUsage } },
  ]);
  const workspace = tempWorkspace();
  const first = await runtime().start(launch({ workspace }));
  const ev1 = collect(first);
  await first.deliver("REMEMBER the code word.");
  const { sessionId } = await ev1.until(is("session"));
  const before = await ev1.until(is("turn.usage"));
  await ev1.until(is("turn.end"));
  await first.stop();
  await ev1.done;
  assert.ok(fs.existsSync(path.join(workspace, ".switchboard", "claude")), "per-agent config directory");

  const second = await runtime().start(launch({ workspace, resumeSessionId: sessionId }));
  const ev2 = collect(second);
  await second.deliver("RECALL it.");
  const req = await model.waitForRequest((r) => r.lastUserText.includes("RECALL"));
  assert.ok(
    req.messages.some((m) => JSON.stringify(m.content).includes("PELICAN")),
    "the earlier turn is in the resumed conversation",
  );
  const resumed = await ev2.until(is("turn.usage"));
  assert.equal(resumed.inputTokens, 2000);
  assert.ok((before.costUsd ?? 0) > 0);
  assert.equal(
    resumed.costUsd,
    before.costUsd,
    "the same usage costs the same; earlier turns are not charged again",
  );
  assert.equal(ev2.events.find(is("session"))?.sessionId, sessionId, "the same session");
  await ev2.until(is("turn.end"));
  await second.stop();
  await ev2.done;
});

test("an ask_user cut by Claude Code's tool timeout: the owner's answer still reaches the session, as a turn from its inbox (the runner's feeder)", {
  skip,
}, async () => {
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  const { feedInbox } = await import("@/lib/runner/inbox-feeder");
  const { sendOwnerMessage } = await import("@/lib/domain/messages/send-owner-message");
  const db = await import("@/lib/db");
  const coordinator = team.agents[0];
  assert.ok(coordinator);
  const question = {
    question: "Which queue?",
    header: "Queue",
    multiSelect: false,
    options: [
      { label: "Redis", description: "a server" },
      { label: "Postgres-queue", description: "the database" },
    ],
  };
  model.setScript([
    {
      when: { userSays: "DECIDE-CUT" },
      reply: { tools: [{ name: hubTool("ask_user"), input: { questions: [question] } }] },
    },
    { when: { afterTool: hubTool("ask_user") }, reply: { text: "CUT-SEEN" } },
  ]);
  // A short tool timeout stands in for a runtime that cuts a long call (the real default is an hour).
  const session = await claudeCodeRuntime({
    baseEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-standin",
    },
    mcpToolTimeoutMs: 3_000,
    stopGraceMs: 20_000,
  }).start(launch({ agentId: Number(coordinator.id), apiKey: coordinator.key }));
  const ev = collect(session);
  const feeding = new AbortController();
  const fed = feedInbox(
    { mcpUrl: `${server.url}/mcp`, apiKey: coordinator.key, session, log: {} },
    feeding.signal,
  );
  try {
    const ownerId = await db.read(({ db: d }) =>
      d.goal.findUniqueOrThrow({ where: { id: team.goal.goal_id }, select: { ownerId: true } }),
    );
    await sendOwnerMessage(ownerId.ownerId, {
      agentId: Number(coordinator.id),
      content: "DECIDE-CUT which queue to use.",
    });
    const call = await ev.until(
      is("tool_called", (e) => e.name === hubTool("ask_user")),
      0,
      60_000,
    );
    const cut = await ev.until(
      is("tool_result", (e) => e.toolUseId === call.toolUseId),
      0,
      60_000,
    );
    assert.equal(cut.isError, true, `the call was cut: ${cut.content}`);
    await ev.until(is("assistant_text", (e) => e.text === "CUT-SEEN"));

    // The owner answers after the cut: the answer's inbox copy becomes the session's next turn.
    const auth = { authorization: `Bearer ${team.token}`, "content-type": "application/json" };
    const r = await server.fetch("/api/questions?status=pending", { headers: auth });
    const pending = (await r.json()) as { questions: { qid: string; questions?: unknown }[] };
    const qid = pending.questions.find((q) => JSON.stringify(q).includes("Which queue?"))?.qid;
    assert.ok(qid, JSON.stringify(pending));
    const answered = await server.fetch(`/api/questions/${qid}/answer`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ answers: [{ selected_labels: ["Postgres-queue"] }] }),
    });
    assert.equal(answered.status, 200, await answered.text());
    const turn = await model.waitForRequest(
      (q) => /kind: question_answer/.test(q.lastUserText) && q.lastUserText.includes("Postgres-queue"),
      60_000,
    );
    assert.ok(
      turn.messages.some((m) => JSON.stringify(m.content).includes("DECIDE-CUT")),
      "the same session",
    );
  } finally {
    feeding.abort();
    await session.stop();
    await ev.done;
    await fed;
    await db.disconnect();
  }
});
