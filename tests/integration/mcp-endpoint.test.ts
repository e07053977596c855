// /mcp as a client sees it: authentication, Origin, body cap, tool visibility, strict input.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, mcpClient, sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_MAX_BODY_BYTES: "100000" } });
});
after(() => server?.stop());

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

test("no credential, an unknown one, or a revoked one: 401 with WWW-Authenticate", async () => {
  const none = await rpc(listTools);
  assert.equal(none.status, 401);
  assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer realm="switchboard"$/);
  const bad = await rpc(listTools, { authorization: "Bearer sb_agent_not-a-real-key" });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get("www-authenticate") ?? "", /error="invalid_token"/);

  const { agents } = await goalWithAgents(server, 1);
  const agent = agents[1];
  assert.ok(agent);
  assert.equal((await rpc(listTools, { authorization: `Bearer ${agent.key}` })).status, 200);
  const fresh = await server.cli("agent", "key", agent.id, "--revoke-others");
  assert.equal((await rpc(listTools, { authorization: `Bearer ${agent.key}` })).status, 401);
  assert.equal((await rpc(listTools, { authorization: `Bearer ${fresh}` })).status, 200);
});

test("a browser Origin that is not allowed gets 403; the app's own origin passes", async () => {
  const token = await server.ownerToken();
  const auth = { authorization: `Bearer ${token}` };
  const evil = await rpc(listTools, { ...auth, origin: "http://evil.example" });
  assert.equal(evil.status, 403);
  assert.equal(
    ((await evil.json()) as { error: { data: { code: string } } }).error.data.code,
    "origin_not_allowed",
  );
  assert.equal((await rpc(listTools, { ...auth, origin: server.url })).status, 200);
});

test("a body over the cap is refused with 413", async () => {
  const token = await server.ownerToken();
  const big = JSON.stringify({ ...listTools, params: { pad: "x".repeat(120_000) } });
  assert.equal((await rpc(big, { authorization: `Bearer ${token}` })).status, 413);
});

test("GET and DELETE on the stateless /mcp answer 405 with Allow: POST", async () => {
  const token = await server.ownerToken();
  for (const method of ["GET", "DELETE"]) {
    const r = await fetch(`${server.url}/mcp`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.get("allow"), "POST");
    assert.equal(
      ((await r.json()) as { error: { data: { code: string } } }).error.data.code,
      "method_not_allowed",
    );
  }
});

test("an over-cap body is refused before authentication (413, not 401), also without Content-Length", async () => {
  const big = JSON.stringify({ ...listTools, params: { pad: "x".repeat(120_000) } });
  assert.equal((await rpc(big)).status, 413);
  // A streamed body (chunked, no Content-Length) is cut at the cap while it is read.
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode("x".repeat(10_000)));
      c.close();
    },
  });
  const r = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: stream,
    duplex: "half",
  } as RequestInit);
  assert.equal(r.status, 413);
});

test("a terminated agent's key is refused with agent_retired, saying why", async () => {
  const { agents } = await goalWithAgents(server, 1);
  const [coordinator, worker] = agents;
  assert.ok(coordinator && worker);
  const auth = { authorization: `Bearer ${worker.key}` };
  assert.equal((await rpc(listTools, auth)).status, 200);
  const t = await coordinator.client.callTool({
    name: "terminate_child",
    arguments: { agent_id: worker.id, force: true },
  });
  assert.equal(t.isError, undefined, JSON.stringify(t));
  // Until it reads its terminate sentinel the agent still works (it must be able to read it).
  const inbox = sc<{ messages: { kind: string }[] }>(
    await worker.client.callTool({ name: "read_inbox", arguments: {} }),
  );
  assert.ok(
    inbox.messages.some((m) => m.kind === "terminate"),
    JSON.stringify(inbox),
  );
  const r = await rpc(listTools, auth);
  assert.equal(r.status, 401);
  assert.match(r.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  const err = (
    (await r.json()) as { error: { message: string; data: { code: string; details: { reason: string } } } }
  ).error;
  assert.equal(err.data.code, "agent_retired");
  assert.equal(err.data.details.reason, "agent_terminated");
  assert.match(err.message, /terminated/);
});

test("tools/list shows agents the agent tools and owners the owner tools", async () => {
  const { owner, agents } = await goalWithAgents(server, 1);
  const agentTools = (await agents[1]?.client.listTools())?.tools ?? [];
  const ownerTools = (await owner.listTools()).tools;
  assert.deepEqual(agentTools.map((t) => t.name).sort(), [
    "answer_question",
    "ask_user",
    "claim_task",
    "complete_task",
    "create_team",
    "declare_plan",
    "escalate_question",
    "list_peers",
    "list_pending_reviews",
    "list_ready",
    "list_resources",
    "list_tasks",
    "propose_agent",
    "propose_task_tree",
    "read_inbox",
    "remove_plan",
    "report_usage",
    "request_resource",
    "request_termination",
    "send_message",
    "signal_review",
    "spawn_agent",
    "terminate_child",
    "update_plan_task",
    "verify_task",
    "whoami",
  ]);
  assert.deepEqual(ownerTools.map((t) => t.name).sort(), [
    "create_goal",
    "pause_goal",
    "resume_goal",
    "unquarantine_agent",
    "whoami",
  ]);
  for (const t of [...agentTools, ...ownerTools]) {
    assert.equal(t.inputSchema.type, "object");
    assert.equal((t.inputSchema as { additionalProperties?: boolean }).additionalProperties, false, t.name);
    assert.ok(t.description && t.description.length > 40, `${t.name} has a useful description`);
  }
  // An agent calling an owner tool is refused with a typed error.
  const r = await agents[1]?.client.callTool({
    name: "create_goal",
    arguments: { title: "abc", description: "0123456789" },
  });
  assert.equal(errorCode(r), "unknown_tool");
});

test("identity comes from the credential: identity fields in input are rejected, whoami tells the truth", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [a, b] = [agents[1], agents[2]];
  assert.ok(a && b);
  const me = sc<{ agent_id: string }>(await a.client.callTool({ name: "whoami", arguments: {} }));
  assert.equal(me.agent_id, a.id);
  const r = await a.client.callTool({
    name: "send_message",
    arguments: { to: b.id, content: "hi", caller_id: b.id },
  });
  assert.equal(errorCode(r), "invalid_input");
  assert.match(JSON.stringify(sc(r)), /caller_id/);
});

test("wrong types and missing fields are invalid_input naming the field, and change nothing", async () => {
  const { agents } = await goalWithAgents(server, 1);
  const a = agents[1];
  assert.ok(a);
  const wrongType = await a.client.callTool({ name: "send_message", arguments: { to: 5, content: "x" } });
  assert.equal(errorCode(wrongType), "invalid_input");
  assert.match((wrongType.content as { text: string }[])[0]?.text ?? "", /^Error invalid_input: to:/);
  const missing = await a.client.callTool({ name: "send_message", arguments: { to: "1" } });
  assert.equal(errorCode(missing), "invalid_input");
  const tooLong = await a.client.callTool({
    name: "send_message",
    arguments: { to: "1", content: "x".repeat(64_001) },
  });
  assert.equal(errorCode(tooLong), "invalid_input");
  // The coordinator's inbox holds only the goal it was created with: none of the refused sends arrived.
  const inbox = sc<{ messages: { kind: string }[] }>(
    await agents[0]?.client.callTool({ name: "read_inbox", arguments: {} }),
  );
  assert.deepEqual(
    inbox.messages.map((m) => m.kind),
    ["task_assignment"],
  );
});

test("an owner token cannot use agent tools, an agent key works from any client session (stateless)", async () => {
  const { agents, token } = await goalWithAgents(server, 1);
  const owner = await mcpClient(server.url, token);
  const r = await owner.callTool({ name: "read_inbox", arguments: {} });
  assert.equal(errorCode(r), "unknown_tool");
  const a = agents[1];
  assert.ok(a);
  const second = await mcpClient(server.url, a.key);
  assert.equal(
    sc<{ agent_id: string }>(await second.callTool({ name: "whoami", arguments: {} })).agent_id,
    a.id,
  );
});
