// Autonomy tiers enforced per call (issue 13, docs/agents.md "Autonomy tiers"): supervised agents need their
// leader's approval before claim_task and before messaging outside their team, assisted (and supervised)
// before propose_agent / propose_task_tree / spawn_agent / create_team; autonomous agents need none. The
// approval climbs the leader chain as a question (Allow / Deny); the gated call answers `approval_required`.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

let h: InProcess;
let db: typeof import("@/lib/db");
let autonomy: typeof import("@/lib/domain/agents/autonomy");
before(async () => {
  h = await startInProcess();
  db = await import("@/lib/db");
  autonomy = await import("@/lib/domain/agents/autonomy");
});
after(async () => {
  await h?.stop();
});

type Json = Record<string, unknown>;
type Details = { qid: string; state: string; approver: string; target: string; denied?: { qid: string } };
const details = (r: unknown) =>
  (r as { structuredContent: { error: { details: Details } } }).structuredContent.error.details;

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Json };
}

type Inbox = { messages: { kind: string; content: string }[]; ack: number };
async function inbox(c: Client): Promise<Inbox["messages"]> {
  const r = sc<Inbox>(await c.callTool({ name: "read_inbox", arguments: {} }));
  await c.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
  return r.messages;
}

const setTier = (id: string, tier: string) =>
  db.write(({ db: d }) => d.agent.update({ where: { id: Number(id) }, data: { autonomyTier: tier } }));

const answer = (c: Client, qid: string, label: string, text: string | null = null) =>
  c.callTool({
    name: "answer_question",
    arguments: { qid, answers: [{ selected_labels: [label], text }], reason: "leader's call" },
  });

/** A goal with n agents under the coordinator and one approved task. */
async function goalWithTask(n: number) {
  const g = await goalWithAgents(h, n);
  const [coordinator] = g.agents;
  assert.ok(coordinator);
  const p = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: g.goal.goal_id,
      tree: { title: "Write the guide", description: "Write the user guide.", children: [] },
    },
  });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  assert.equal((await rest(g.token, "POST", `/api/approvals/${id}/approve`, {})).status, 200);
  const task = await db.read(({ db: d }) =>
    d.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id }, select: { id: true, status: true } }),
  );
  return { ...g, taskId: task.id };
}

const taskStatus = async (id: number) =>
  (await db.read(({ db: d }) => d.goalTask.findUniqueOrThrow({ where: { id } }))).status;

test("the tier table: autonomous needs nothing, assisted the team-growing tools, supervised also claims and messages", () => {
  const gated = (tier: string) =>
    [
      "claim_task",
      "send_message",
      "propose_agent",
      "propose_task_tree",
      "spawn_agent",
      "create_team",
      "read_inbox",
      "complete_task",
    ].filter((t) => autonomy.tierGates(tier, t));
  assert.deepEqual(gated("autonomous"), []);
  assert.deepEqual(gated("assisted"), ["propose_agent", "propose_task_tree", "spawn_agent", "create_team"]);
  assert.deepEqual(gated("supervised"), [
    "claim_task",
    "send_message",
    "propose_agent",
    "propose_task_tree",
    "spawn_agent",
    "create_team",
  ]);
});

test("supervised claim_task: held until the leader allows; a Deny is told with its reason; asking again after it", async () => {
  const g = await goalWithTask(1);
  const [c, a] = g.agents;
  assert.ok(c && a);
  await setTier(a.id, "supervised");
  const first = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(first), "approval_required");
  const d1 = details(first);
  assert.equal(d1.state, "requested");
  assert.equal(d1.approver, c.id);
  assert.equal(d1.target, `task:${g.taskId}`);
  assert.equal(await taskStatus(g.taskId), "approved", "nothing claimed");
  // Again while pending: the same request, not a second one.
  const again = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.deepEqual(
    [errorCode(again), details(again).state, details(again).qid],
    ["approval_required", "pending", d1.qid],
  );
  const asked = await db.read(({ db: d }) =>
    d.question.count({ where: { askerId: Number(a.id), origin: "autonomy" } }),
  );
  assert.equal(asked, 1);
  // The leader gets an [INBOX QUESTION] with Allow / Deny, and denies.
  const q = (await inbox(c.client)).find((m) => m.kind === "question");
  assert.match(q?.content ?? "", new RegExp(`qid=${d1.qid}`));
  assert.match(q?.content ?? "", /claim goal task/);
  assert.equal(errorCode(await answer(c.client, d1.qid, "Deny", "Let the specialist take it.")), undefined);
  const denied = (await inbox(a.client)).find((m) => m.kind === "approval_decision");
  assert.match(denied?.content ?? "", /^\[DENIED\].*\n.*Let the specialist take it/s);
  // Calling again asks again (a new request), naming the denied one.
  const third = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(third), "approval_required");
  assert.equal(details(third).state, "requested");
  assert.equal(details(third).denied?.qid, d1.qid);
  assert.equal(errorCode(await answer(c.client, details(third).qid, "Allow")), undefined);
  const allowed = (await inbox(a.client)).filter((m) => m.kind === "approval_decision");
  assert.match(allowed.at(-1)?.content ?? "", /^\[APPROVED\]/);
  const ok = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(ok), undefined, JSON.stringify(ok));
  assert.equal(await taskStatus(g.taskId), "claimed");
  const held = await db.read(({ db: d }) =>
    d.event.count({ where: { goalId: g.goal.goal_id, name: "autonomy_gate.held", agentId: Number(a.id) } }),
  );
  assert.equal(held, 3);
});

test("supervised send_message: free inside its team (leader, siblings, its reports), approval per recipient outside; the owner decides when the chain reaches it", async () => {
  const g = await goalWithAgents(h, 2);
  const [c, a, b] = g.agents;
  assert.ok(c && a && b);
  const report = await h.createAgent({ goal: g.goal.goal_id, name: "a-report", leader: a.id });
  const outsider = await h.createAgent({ goal: g.goal.goal_id, name: "b-report", leader: b.id });
  await setTier(a.id, "supervised");
  const send = (to: string | number, content = "hello") =>
    a.client.callTool({ name: "send_message", arguments: { to: String(to), content } });
  for (const to of [c.id, b.id, report.agent_id])
    assert.equal(errorCode(await send(to)), undefined, `to ${to}`);
  const held = await send(outsider.agent_id, "Can you share the schema?");
  assert.equal(errorCode(held), "approval_required");
  assert.equal(details(held).target, `agent:${outsider.agent_id}`);
  const delivered = await db.read(({ db: d }) =>
    d.message.count({ where: { recipientAgentId: outsider.agent_id, kind: "message" } }),
  );
  assert.equal(delivered, 0, "nothing delivered while held");
  // The coordinator passes it up; the owner allows it in /questions (REST).
  const qid = details(held).qid;
  const esc = await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "your call" } });
  assert.equal(errorCode(esc), undefined, JSON.stringify(esc));
  const ans = await rest(g.token, "POST", `/api/questions/${qid}/answer`, {
    answers: [{ selected_labels: ["Allow"] }],
  });
  assert.equal(ans.status, 200, JSON.stringify(ans.json));
  assert.equal(errorCode(await send(outsider.agent_id)), undefined);
  assert.equal(
    errorCode(await send(outsider.agent_id, "and again")),
    undefined,
    "the grant is per recipient",
  );
  // An autonomous agent is never held.
  assert.equal(
    errorCode(
      await b.client.callTool({
        name: "send_message",
        arguments: { to: String(report.agent_id), content: "hi" },
      }),
    ),
    undefined,
  );
});

test("assisted: claims freely, but propose_task_tree waits for approval of that exact content (the owner, for a coordinator)", async () => {
  const g = await goalWithTask(1);
  const [c, a] = g.agents;
  assert.ok(c && a);
  await setTier(a.id, "assisted");
  assert.equal(
    errorCode(await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } })),
    undefined,
  );
  await setTier(c.id, "assisted");
  const tree = (title: string) => ({
    name: "propose_task_tree",
    arguments: { goal_id: g.goal.goal_id, tree: { title, description: "More work." } },
  });
  const held = await c.client.callTool(tree("Second tree"));
  assert.equal(errorCode(held), "approval_required");
  assert.equal(details(held).approver, "__user__");
  const proposals = () => db.read(({ db: d }) => d.proposal.count({ where: { goalId: g.goal.goal_id } }));
  assert.equal(await proposals(), 1, "no proposal written while held");
  const ans = await rest(g.token, "POST", `/api/questions/${details(held).qid}/answer`, {
    answers: [{ selected_labels: ["Allow"] }],
  });
  assert.equal(ans.status, 200, JSON.stringify(ans.json));
  assert.equal(errorCode(await c.client.callTool(tree("Second tree"))), undefined);
  assert.equal(await proposals(), 2);
  // Other content is another request.
  const third = await c.client.callTool(tree("Third tree"));
  assert.equal(errorCode(third), "approval_required");
  // The owner declines it: the coordinator is told, with the reason; the tree is not proposed.
  const declined = await rest(g.token, "POST", `/api/questions/${details(third).qid}/decline`, {
    reason: "One tree at a time.",
  });
  assert.equal(declined.status, 200, JSON.stringify(declined.json));
  const told = (await inbox(c.client)).filter((m) => m.kind === "approval_decision").at(-1);
  assert.match(told?.content ?? "", /^\[DENIED\].*The owner declined: One tree at a time\./s);
  assert.equal(await proposals(), 2);
});

test("a call that would fail anyway is not held: the tool's own error, and no request to the leader", async () => {
  const g = await goalWithTask(2);
  const [c, a, b] = g.agents;
  assert.ok(c && a && b);
  assert.equal(
    errorCode(await b.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } })),
    undefined,
  );
  await setTier(a.id, "supervised");
  const taken = await a.client.callTool({ name: "claim_task", arguments: { task_id: g.taskId } });
  assert.equal(errorCode(taken), "ErrAlreadyClaimed");
  // propose_agent over the cap (a tool outside the proposer's scope) → the contract's code, not a request.
  await db.write(({ db: d }) =>
    d.agent.update({
      where: { id: Number(a.id) },
      data: { toolScopeJson: JSON.stringify(["read_inbox", "send_message", "propose_agent"]) },
    }),
  );
  const a2 = await h.client(a.key);
  const proposal = (extra: Json) => ({
    name: "propose_agent",
    arguments: {
      goal_id: g.goal.goal_id,
      parent_task_id: g.taskId,
      name: `helper-${Math.random().toString(36).slice(2, 7)}`,
      model: "claude-sonnet-4-5",
      system_prompt: "You help with the user guide and report back when done.",
      tool_scope: ["read_inbox"],
      autonomy_tier: "supervised",
      reason: "The guide needs a second pair of hands.",
      ...extra,
    },
  });
  const over = await a2.callTool(proposal({ tool_scope: ["read_inbox", "claim_task"] }));
  assert.equal(errorCode(over), "ErrDelegationCapExceeded");
  const asked = () =>
    db.read(({ db: d }) => d.question.count({ where: { askerId: Number(a.id), origin: "autonomy" } }));
  assert.equal(await asked(), 0);
  // Within the cap: held for the leader; allowed → proposed.
  const ok = proposal({});
  const held = await a2.callTool(ok);
  assert.equal(errorCode(held), "approval_required");
  assert.equal(await asked(), 1);
  assert.equal(errorCode(await answer(c.client, details(held).qid, "Allow")), undefined);
  const proposed = await a2.callTool(ok);
  assert.equal(errorCode(proposed), undefined, JSON.stringify(proposed));
  assert.ok(sc<{ proposal_id: number }>(proposed).proposal_id > 0);
});

test("assisted spawn_agent: a ready plan task is held for the leader (here the owner); an unknown one is the tool's unknown_task", async () => {
  const { task } = await import("../helpers/teams");
  const g = await goalWithAgents(h, 0);
  const [c] = g.agents;
  assert.ok(c);
  assert.equal(
    errorCode(await c.client.callTool({ name: "declare_plan", arguments: { tasks: [task("docs")] } })),
    undefined,
  );
  await setTier(c.id, "assisted");
  const unknown = await c.client.callTool({ name: "spawn_agent", arguments: { task_id: "nope" } });
  assert.equal(errorCode(unknown), "unknown_task");
  const held = await c.client.callTool({ name: "spawn_agent", arguments: { task_id: "docs" } });
  assert.equal(errorCode(held), "approval_required");
  assert.deepEqual([details(held).approver, details(held).target], ["__user__", "plan_task:docs"]);
  const agents = () => db.read(({ db: d }) => d.agent.count({ where: { goalId: g.goal.goal_id } }));
  assert.equal(await agents(), 1, "nothing spawned while held");
  const ans = await rest(g.token, "POST", `/api/questions/${details(held).qid}/answer`, {
    answers: [{ selected_labels: ["Allow"] }],
  });
  assert.equal(ans.status, 200, JSON.stringify(ans.json));
  const spawned = await c.client.callTool({ name: "spawn_agent", arguments: { task_id: "docs" } });
  assert.equal(errorCode(spawned), undefined, JSON.stringify(spawned));
  assert.equal(await agents(), 2);
});

test("supervised send_message to an agent of another goal or another owner: the tool's own error, never a request naming it", async () => {
  const mine = await goalWithAgents(h, 1);
  const sameOwner = await goalWithAgents(h, 1);
  const otherOwner = await goalWithAgents(h, 1, "someone-else@example.com");
  const a = mine.agents[1];
  const b = sameOwner.agents[1];
  const x = otherOwner.agents[1];
  assert.ok(a && b && x);
  await setTier(a.id, "supervised");
  const send = (to: string) =>
    a.client.callTool({ name: "send_message", arguments: { to, content: "hello" } });
  assert.equal(errorCode(await send(b.id)), "task_mismatch");
  assert.equal(errorCode(await send(x.id)), "unknown_recipient");
  const asked = await db.read(({ db: d }) =>
    d.question.count({ where: { askerId: Number(a.id), origin: "autonomy" } }),
  );
  assert.equal(asked, 0);
});
