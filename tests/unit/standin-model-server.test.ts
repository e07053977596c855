// The stand-in model server speaks the Messages API the way Claude Code needs it (the full SSE sequence,
// the JSON form, HEAD /), and its scripts pick replies from the request. The runtime's tool policy too.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { claudeCodeRuntime, passedEnv } from "@/lib/runner/runtimes/claude-code";
import {
  ASK_USER_QUESTION_REDIRECTED,
  DISALLOWED_ALIAS_DENIED,
  decideTool,
  hubTool,
} from "@/lib/runner/runtimes/claude-code-policy";
import { type ModelServer, startModelServer } from "@/lib/standin/model-server";

let model: ModelServer;
before(async () => {
  model = await startModelServer();
});
after(() => model.close());

const post = (body: unknown) =>
  fetch(`${model.url}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

function events(sse: string) {
  return sse
    .split("\n\n")
    .filter(Boolean)
    .map((chunk) => {
      const [ev, data] = chunk.split("\n");
      return { event: ev?.slice("event: ".length), data: JSON.parse(data?.slice("data: ".length) ?? "null") };
    });
}

test("HEAD / answers 200", async () => {
  assert.equal((await fetch(model.url, { method: "HEAD" })).status, 200);
});

test("a scripted tool call streams the complete SSE sequence; split deltas reassemble", async () => {
  model.setScript([
    {
      when: { userSays: "whoami please", hasTool: hubTool("whoami") },
      reply: { text: "Let me check.", tools: [{ name: hubTool("whoami"), input: { verbose: true } }] },
    },
  ]);
  const res = await post({
    model: "claude-sonnet-4-5",
    stream: true,
    system: [{ type: "text", text: "You are a test." }],
    tools: [{ name: hubTool("whoami"), input_schema: { type: "object" } }],
    // A system entry, two user messages in a row, the prompt after a reminder block: all tolerated.
    messages: [
      { role: "system", content: "ignored" },
      { role: "user", content: "earlier" },
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>x</system-reminder>" },
          { type: "text", text: "whoami please" },
        ],
      },
    ],
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const evs = events(await res.text());
  const names = evs.map((e) => e.event).filter((e) => e !== "ping");
  assert.deepEqual(names, [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "content_block_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  const toolStart = evs.find(
    (e) => e.event === "content_block_start" && e.data.content_block.type === "tool_use",
  );
  assert.deepEqual(toolStart?.data.content_block.input, {});
  assert.equal(toolStart?.data.content_block.name, hubTool("whoami"));
  const json = evs
    .filter((e) => e.data.delta?.type === "input_json_delta")
    .map((e) => e.data.delta.partial_json)
    .join("");
  assert.deepEqual(JSON.parse(json), { verbose: true });
  const text = evs
    .filter((e) => e.data.delta?.type === "text_delta")
    .map((e) => e.data.delta.text)
    .join("");
  assert.equal(text, "Let me check.");
  const delta = evs.find((e) => e.event === "message_delta")?.data;
  assert.equal(delta.delta.stop_reason, "tool_use");
  assert.ok(delta.usage.output_tokens > 0);
  assert.ok(evs[0]?.data.message.usage.input_tokens > 0);
  assert.equal(model.requests.at(-1)?.lastUserText.endsWith("whoami please"), true);
});

test("steps fire once, in order of listing, by the last user message or the tool result; the JSON form", async () => {
  model.setScript([
    { when: { userSays: /^go$/ }, reply: { tools: [{ name: "x", id: "toolu_1" }] } },
    {
      when: { afterTool: "x" },
      reply: (req) => ({
        text: `got ${req.toolResults[0]?.text}`,
        usage: { input_tokens: 7, output_tokens: 3 },
      }),
    },
  ]);
  const first = await (await post({ model: "m", messages: [{ role: "user", content: "go" }] })).json();
  assert.equal(first.stop_reason, "tool_use");
  assert.deepEqual(first.content, [{ type: "tool_use", id: "toolu_1", name: "x", input: {} }]);
  const history = [
    { role: "user", content: "go" },
    { role: "assistant", content: first.content },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "42" }] }],
    },
  ];
  const second = await (await post({ model: "m", messages: history })).json();
  assert.deepEqual(second.content, [{ type: "text", text: "got 42" }]);
  assert.equal(second.stop_reason, "end_turn");
  assert.deepEqual(second.usage, {
    input_tokens: 7,
    output_tokens: 3,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  });
  // Both steps are used up: the default reply.
  const third = await (await post({ model: "m", messages: [{ role: "user", content: "go" }] })).json();
  assert.deepEqual(third.content, [{ type: "text", text: "Done." }]);
});

test("one stand-in serves several agents: steps tell them apart by the system prompt", async () => {
  model.setScript([
    { when: { systemSays: "You are alice" }, reply: { text: "alice here" }, repeat: true },
    { when: { systemSays: /You are bob\b/ }, reply: { text: "bob here" }, repeat: true },
  ]);
  const as = async (system: string) =>
    (await (await post({ model: "m", system, messages: [{ role: "user", content: "hi" }] })).json())
      .content[0].text;
  assert.equal(await as("You are bob, an engineer."), "bob here");
  assert.equal(await as("You are alice, the coordinator."), "alice here");
  assert.equal(await as("You are bob, an engineer."), "bob here");
  assert.equal(await as("You are carol."), "Done.");
});

test("the runtime's tool policy: AskUserQuestion redirected, shadow tools denied, the rest allowed", () => {
  const ask = decideTool("AskUserQuestion");
  assert.equal(ask.behavior === "deny" && ask.reason, ASK_USER_QUESTION_REDIRECTED);
  assert.match(ask.behavior === "deny" ? ask.message : "", /mcp__switchboard__ask_user/);
  for (const name of ["SendMessage", "Agent", "Task", "TodoWrite", "TaskCreate", "TeamCreate", "Workflow"]) {
    const d = decideTool(name);
    assert.equal(d.behavior === "deny" && d.reason, DISALLOWED_ALIAS_DENIED, name);
  }
  for (const name of ["Read", "Bash", hubTool("send_message")])
    assert.equal(decideTool(name).behavior, "allow");
});

test("an agent program inherits the model client's variables, never the hub's settings", () => {
  const env = passedEnv({
    PATH: "/bin",
    HOME: "/home/op",
    ANTHROPIC_API_KEY: "sk",
    ANTHROPIC_BASE_URL: "http://x",
    https_proxy: "http://proxy",
    DATABASE_URL: "postgres://secret",
    NEXTAUTH_SECRET: "s",
    SWITCHBOARD_DATA_DIR: "/data",
  });
  assert.deepEqual(Object.keys(env).sort(), [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "HOME",
    "PATH",
    "https_proxy",
  ]);
});

test("a launch with a permission mode Claude Code does not know fails at start, before any process", async () => {
  await assert.rejects(
    claudeCodeRuntime({ baseEnv: {} }).start({
      agentId: 1,
      goalId: 1,
      name: "a",
      role: "r",
      mcpUrl: "http://127.0.0.1:1/mcp",
      apiKey: "k",
      systemPrompt: "",
      workspace: "/nonexistent/never-created",
      env: {},
      permissionMode: "yolo",
    }),
    /unknown permission mode "yolo"/,
  );
});
