// propose_agent (issue 13) through real MCP clients: the contract's pre-checks (every error code,
// nothing written), #approvals and the single-use, content-bound decision over REST, the agent created on
// approval (leader, depth, config hash, scope, tier, seeded reputation, the proposer told), the re-check
// at approval time, and tool scopes enforced on tools/list and tools/call.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

let h: InProcess;
let db: typeof import("@/lib/db");
before(async () => {
  h = await startInProcess();
  db = await import("@/lib/db");
});
after(async () => {
  await h?.stop();
});

type Json = Record<string, unknown>;

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as Json & { error?: { code: string; details: Json } };
  return { status: r.status, json, code: json.error?.code };
}

type Inbox = { messages: { kind: string; content: string; from: string }[]; ack: number };
async function inbox(c: Client): Promise<Inbox> {
  const r = sc<Inbox>(await c.callTool({ name: "read_inbox", arguments: {} }));
  await c.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
  return r;
}

/** A goal whose coordinator's one-task tree is approved; `budget` on the goal, `taskBudget` on the task. */
async function goalWithTask(opts: { n?: number; email?: string; taskBudget?: number } = {}) {
  const g = await goalWithAgents(h, opts.n ?? 1, opts.email);
  const [coordinator] = g.agents;
  assert.ok(coordinator);
  const p = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: g.goal.goal_id,
      tree: {
        title: "Build the index",
        description: "Build the search index of the docs.",
        billing_code: "search",
        ...(opts.taskBudget === undefined ? {} : { budget_dollars_cents: opts.taskBudget }),
      },
    },
  });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const ok = await rest(g.token, "POST", `/api/approvals/${id}/approve`, {});
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const task = await db.read(({ db: d }) =>
    d.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id }, select: { id: true } }),
  );
  return { ...g, taskId: task.id };
}

const proposal = (goal_id: number, parent_task_id: number, extra: Json = {}) => ({
  goal_id,
  parent_task_id,
  name: `indexer-${Math.random().toString(36).slice(2, 7)}`,
  model: "claude-sonnet-4-5",
  system_prompt: "You build and maintain the docs search index. Report when it is done.",
  tool_scope: ["read_inbox", "send_message", "claim_task", "complete_task"],
  mcp_servers: [{ name: "search", url: "https://search.example.com/mcp", transport: "http" }],
  autonomy_tier: "assisted",
  reason: "The index needs a specialist with a narrow scope.",
  ...extra,
});

const counts = () =>
  db.read(async ({ db: d }) => ({
    proposals: await d.proposal.count(),
    agents: await d.agent.count(),
    messages: await d.message.count(),
  }));

test("propose_agent → #approvals → approve: the agent, its leader, depth, hash, scope, tier, seeded reputation, the proposer told", async () => {
  const g = await goalWithTask();
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const input = proposal(g.goal.goal_id, g.taskId);
  const r = await coordinator.client.callTool({ name: "propose_agent", arguments: input });
  const out = sc<{ proposal_id: number; approval_message_id: number }>(r);
  assert.equal(errorCode(r), undefined, JSON.stringify(r));
  assert.deepEqual(Object.keys(out).sort(), ["approval_message_id", "proposal_id"]);
  // Identical content again: the pending proposal, not a second one.
  assert.deepEqual(sc(await coordinator.client.callTool({ name: "propose_agent", arguments: input })), out);

  const pending = await rest(g.token, "GET", "/api/approvals?status=pending");
  const view = (pending.json as unknown as Json[]).find(
    (p) => p.proposal_message_id === out.approval_message_id,
  );
  assert.ok(view);
  assert.equal(view.kind, "agent");
  const agentView = view.agent as Json;
  assert.equal(agentView.name, input.name);
  assert.deepEqual(agentView.mcp_servers, input.mcp_servers);
  assert.equal(agentView.proposer_tool_scope, null);
  const hash = view.content_hash as string;

  // Bound to the content: another hash is refused and decides nothing.
  const wrong = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/approve`, {
    content_hash: "0".repeat(64),
  });
  assert.equal(wrong.code, "ErrProposalChanged");
  const before = await counts();
  const ok = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/approve`, {
    content_hash: hash,
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const agentId = ok.json.agent_id as number;
  assert.equal((await counts()).agents, before.agents + 1);
  // Single-use.
  const again = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/approve`, {});
  assert.equal(again.code, "ErrProposalNotPending");

  const agent = await db.read(({ db: d }) => d.agent.findUniqueOrThrow({ where: { id: agentId } }));
  assert.equal(agent.name, input.name);
  assert.equal(agent.leaderId, Number(coordinator.id));
  assert.equal(agent.spawnDepth, 1);
  assert.equal(agent.autonomyTier, "assisted");
  assert.deepEqual(JSON.parse(agent.toolScopeJson ?? "null"), input.tool_scope);
  assert.match(agent.configHash ?? "", /^[0-9a-f]{64}$/);
  assert.equal(agent.proposalId, out.proposal_id);
  // The coordinator has no evidence (score 0.5): the seed is 70 % of it, in the task's domain.
  const seed = await db.read(({ db: d }) =>
    d.reputationEvidence.findMany({ where: { configHash: agent.configHash ?? "" } }),
  );
  assert.deepEqual(
    seed.map((e) => [e.domain, e.delta, e.taskId]),
    [["search", 0.35, null]],
  );
  const rep = await rest(g.token, "GET", `/api/agents/${agentId}/reputation`);
  assert.equal(rep.status, 200);
  assert.equal(rep.json.config_hash, agent.configHash);
  assert.equal(rep.json.evidence_count, 1);
  assert.ok(Math.abs((rep.json.rolling_score as number) - 0.35) < 1e-6);
  assert.equal(typeof rep.json.last_evidence_at, "string");

  const told = (await inbox(coordinator.client)).messages.find(
    (m) => m.kind === "proposal_approved" && m.content.includes("proposed agent"),
  );
  assert.ok(told);
  assert.match(told.content, new RegExp(`${input.name} \\(#${agentId}\\)`));
});

test("reject with a reason: nothing created, the reason reaches the proposer; a blank reason decides nothing", async () => {
  const g = await goalWithTask();
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const out = sc<{ approval_message_id: number }>(
    await coordinator.client.callTool({
      name: "propose_agent",
      arguments: proposal(g.goal.goal_id, g.taskId),
    }),
  );
  const blank = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/reject`, {
    reason: " ",
  });
  assert.equal(blank.code, "invalid_input");
  const before = await counts();
  const no = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/reject`, {
    reason: "Use the existing search agent.",
  });
  assert.equal(no.status, 200);
  assert.equal((await counts()).agents, before.agents);
  const told = (await inbox(coordinator.client)).messages.find((m) => m.kind === "proposal_rejected");
  assert.ok(told);
  assert.match(told.content, /Use the existing search agent\./);
  // Another owner sees nothing of it.
  const other = await h.ownerToken("other-owner@example.com");
  const stranger = await rest(other, "POST", `/api/approvals/${out.approval_message_id}/approve`, {});
  assert.equal(stranger.code, "not_found");
});

test("pre-checks: every error code, and nothing written", async () => {
  const g = await goalWithTask({ n: 2 });
  const [coordinator, worker] = g.agents;
  assert.ok(coordinator && worker);
  const elsewhere = await goalWithTask();
  const call = (c: Client, args: Json) => c.callTool({ name: "propose_agent", arguments: args });
  const base = proposal(g.goal.goal_id, g.taskId);
  const before = await counts();
  const cases: [string, Client, Json, string, Json?][] = [
    ["bad name", coordinator.client, { ...base, name: "Bad_Name" }, "invalid_input"],
    ["short prompt", coordinator.client, { ...base, system_prompt: "too short" }, "invalid_input"],
    ["empty scope", coordinator.client, { ...base, tool_scope: [] }, "invalid_input"],
    ["unknown tool", coordinator.client, { ...base, tool_scope: ["rm_rf"] }, "invalid_input"],
    ["owner tool", coordinator.client, { ...base, tool_scope: ["create_goal"] }, "invalid_input"],
    [
      "non-http server",
      coordinator.client,
      { ...base, mcp_servers: [{ name: "x", url: "file:///etc/passwd", transport: "stdio" }] },
      "invalid_input",
    ],
    ["bad tier", coordinator.client, { ...base, autonomy_tier: "god" }, "invalid_input"],
    ["other goal", coordinator.client, { ...base, goal_id: elsewhere.goal.goal_id }, "not_found"],
    ["other goal's task", coordinator.client, { ...base, parent_task_id: elsewhere.taskId }, "not_found"],
    ["name taken", coordinator.client, { ...base, name: "agent-0" }, "ErrAgentNameTaken"],
  ];
  for (const [what, c, args, code] of cases) assert.equal(errorCode(await call(c, args)), code, what);

  // Delegation cap: scope, tier, budget — each named in details.which.
  await db.write(({ db: d }) =>
    d.agent.update({
      where: { id: Number(worker.id) },
      data: {
        toolScopeJson: JSON.stringify(["read_inbox", "send_message", "propose_agent"]),
        autonomyTier: "assisted",
      },
    }),
  );
  const workerClient = await h.client(worker.key);
  const scoped = await call(workerClient, { ...base, tool_scope: ["read_inbox", "claim_task"] });
  assert.equal(errorCode(scoped), "ErrDelegationCapExceeded");
  assert.deepEqual(sc<{ error: { details: Json } }>(scoped).error.details, {
    which: "tool_scope",
    excess: ["claim_task"],
  });
  const tier = await call(workerClient, { ...base, tool_scope: ["read_inbox"], autonomy_tier: "autonomous" });
  assert.equal(errorCode(tier), "ErrDelegationCapExceeded");
  assert.equal(sc<{ error: { details: Json } }>(tier).error.details.which, "autonomy_tier");

  const rich = await goalWithTask({ taskBudget: 5000 });
  await db.write(({ db: d }) =>
    d.goal.update({ where: { id: rich.goal.goal_id }, data: { budgetCents: 6000, spentCents: 2000 } }),
  );
  const budget = await call(rich.agents[0]?.client as Client, proposal(rich.goal.goal_id, rich.taskId));
  assert.equal(errorCode(budget), "ErrDelegationCapExceeded");
  assert.deepEqual(sc<{ error: { details: Json } }>(budget).error.details, {
    which: "budget",
    field: "budget_dollars_cents",
    proposed: 5000,
    remaining: 4000,
  });

  // Depth: the worker sits at depth 1; a goal allowing depth 1 refuses its proposal.
  await db.write(({ db: d }) => d.goal.update({ where: { id: g.goal.goal_id }, data: { maxSpawnDepth: 1 } }));
  const deep = await call(workerClient, { ...base, tool_scope: ["read_inbox"] });
  assert.equal(errorCode(deep), "ErrSpawnDepthExceeded");
  assert.deepEqual(sc<{ error: { details: Json } }>(deep).error.details, {
    spawn_depth: 1,
    max_spawn_depth: 1,
  });

  const now = await counts();
  assert.equal(now.proposals, before.proposals + 1, "only the budget goal's task tree was proposed");
  assert.equal(now.agents, before.agents + 2, "only the budget goal's coordinator and agent were created");
});

test("the grant is checked again at approval: a name taken meanwhile refuses, the proposal stays pending", async () => {
  const g = await goalWithTask();
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const input = proposal(g.goal.goal_id, g.taskId);
  const out = sc<{ approval_message_id: number }>(
    await coordinator.client.callTool({ name: "propose_agent", arguments: input }),
  );
  await h.createAgent({ goal: g.goal.goal_id, name: input.name });
  const r = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/approve`, {});
  assert.equal(r.status, 409);
  assert.equal(r.code, "ErrAgentNameTaken");
  const p = await db.read(({ db: d }) =>
    d.proposal.findUniqueOrThrow({ where: { messageId: out.approval_message_id } }),
  );
  assert.equal(p.status, "pending");
  // Depth lowered meanwhile.
  const g2 = await goalWithTask();
  const out2 = sc<{ approval_message_id: number }>(
    await g2.agents[0]?.client.callTool({
      name: "propose_agent",
      arguments: proposal(g2.goal.goal_id, g2.taskId),
    }),
  );
  await db.write(({ db: d }) =>
    d.goal.update({ where: { id: g2.goal.goal_id }, data: { maxSpawnDepth: 0 } }),
  );
  const deep = await rest(g2.token, "POST", `/api/approvals/${out2.approval_message_id}/approve`, {});
  assert.equal(deep.code, "ErrSpawnDepthExceeded");
});

test("tool scope: tools/list shows only the scope; a call outside it is tool_not_in_scope and an event", async () => {
  const g = await goalWithTask();
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const out = sc<{ approval_message_id: number }>(
    await coordinator.client.callTool({
      name: "propose_agent",
      arguments: proposal(g.goal.goal_id, g.taskId),
    }),
  );
  const ok = await rest(g.token, "POST", `/api/approvals/${out.approval_message_id}/approve`, {});
  const agentId = ok.json.agent_id as number;
  const c = await h.client(await h.agentKey(agentId));
  const names = (await c.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["claim_task", "complete_task", "read_inbox", "send_message"]);
  // Refused before its input is even read.
  const r = await c.callTool({ name: "list_peers", arguments: { scope: "nonsense" } });
  assert.equal(errorCode(r), "tool_not_in_scope");
  assert.equal(sc<{ error: { details: Json } }>(r).error.details.tool, "list_peers");
  const ev = await db.read(({ db: d }) =>
    d.event.findMany({ where: { goalId: g.goal.goal_id, name: "tool_not_in_scope", agentId } }),
  );
  assert.equal(ev.length, 1);
  // In scope: works.
  assert.equal(errorCode(await c.callTool({ name: "read_inbox", arguments: {} })), undefined);
  // The default scope (none stored): every agent tool.
  const all = (await coordinator.client.listTools()).tools.map((t) => t.name);
  assert.ok(all.includes("propose_agent") && all.includes("list_peers"));
});

test("two approvals of the same name at once (two goals of one owner): exactly one agent, the other ErrAgentNameTaken", async () => {
  const email = "race-owner@example.com";
  const [a, b] = [await goalWithTask({ email }), await goalWithTask({ email })];
  const name = `racer-${Math.random().toString(36).slice(2, 7)}`;
  const ids: number[] = [];
  for (const g of [a, b]) {
    const r = await g.agents[0]?.client.callTool({
      name: "propose_agent",
      arguments: proposal(g.goal.goal_id, g.taskId, { name }),
    });
    ids.push(sc<{ approval_message_id: number }>(r).approval_message_id);
  }
  const results = await Promise.all(
    ids.map((id) => rest(a.token, "POST", `/api/approvals/${id}/approve`, {})),
  );
  assert.deepEqual(results.map((r) => r.code ?? r.status).sort(), [200, "ErrAgentNameTaken"].sort());
  const agents = await db.read(({ db: d }) => d.agent.count({ where: { name } }));
  assert.equal(agents, 1);
});

test("a proposer being terminated: its pending proposal closes; one it makes after its sentinel cannot be approved (proposer_ended), only rejected", async () => {
  const g = await goalWithTask();
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const { postSentinels } = await import("@/lib/domain/teams/terminate-child");
  const first = sc<{ approval_message_id: number }>(
    await coordinator.client.callTool({
      name: "propose_agent",
      arguments: proposal(g.goal.goal_id, g.taskId),
    }),
  );
  await db.write((u) => postSentinels(u, Number(coordinator.id), "owner_stop", null));
  const closed = await db.read(({ db: d }) =>
    d.proposal.findUniqueOrThrow({ where: { messageId: first.approval_message_id } }),
  );
  assert.equal(closed.status, "rejected");
  assert.match(closed.reason ?? "", /was terminated \(owner_stop\)/);
  const late = await rest(g.token, "POST", `/api/approvals/${first.approval_message_id}/approve`, {});
  assert.deepEqual([late.status, late.code], [409, "ErrProposalNotPending"]);

  // Still able to call tools until it reads its sentinel: a proposal made now cannot be approved.
  const before = await counts();
  const second = sc<{ approval_message_id: number }>(
    await coordinator.client.callTool({
      name: "propose_agent",
      arguments: proposal(g.goal.goal_id, g.taskId),
    }),
  );
  const refused = await rest(g.token, "POST", `/api/approvals/${second.approval_message_id}/approve`, {});
  assert.deepEqual([refused.status, refused.code], [409, "proposer_ended"], JSON.stringify(refused.json));
  assert.equal((await counts()).agents, before.agents, "no agent created");
  const p = await db.read(({ db: d }) =>
    d.proposal.findUniqueOrThrow({ where: { messageId: second.approval_message_id } }),
  );
  assert.equal(p.status, "pending");
  const rejected = await rest(g.token, "POST", `/api/approvals/${second.approval_message_id}/reject`, {
    reason: "Its proposer is gone.",
  });
  assert.equal(rejected.status, 200, JSON.stringify(rejected.json));
});
