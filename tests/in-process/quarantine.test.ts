// Quarantine both ways (issue 13): the minimum-evidence rule (a first rejection alone quarantines nobody),
// the owner's card (Lift quarantine / Keep quarantined), unquarantine_agent over MCP with an owner token,
// POST /api/agents/:id/unquarantine, GET /api/agents/:id/reputation, and every error code they return.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { DB_Q } from "../helpers/questions";

let h: InProcess;
let db: typeof import("@/lib/db");
let rep: typeof import("@/lib/domain/reputation/reputation");
before(async () => {
  h = await startInProcess();
  db = await import("@/lib/db");
  rep = await import("@/lib/domain/reputation/reputation");
});
after(async () => {
  await h?.stop();
});

type Json = Record<string, unknown>;
async function rest(token: string, method: string, url: string) {
  const r = await h.fetch(url, { method, headers: { Authorization: `Bearer ${token}` } });
  const json = (await r.json()) as Json & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}

/** A verdict as verify_task records it (task ids only label the evidence here). */
const verdict = (goalId: number, agentId: number, delta: 1 | -1, taskId: number) =>
  db.write((u) => rep.recordVerdictEvidence(u, { goalId, agentId, taskId, billingCode: "qa", delta }));

const quarantinedAt = async (id: number) =>
  (await db.read(({ db: d }) => d.agent.findUniqueOrThrow({ where: { id } }))).quarantinedAt;

test("minimum evidence: one rejection as the first evidence does not quarantine; a second failing verdict does, and the owner gets a card", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  const first = await verdict(g.goal.goal_id, agentId, -1, 1);
  assert.deepEqual(first, { score: 0, quarantined: false });
  assert.equal(await quarantinedAt(agentId), null);
  const second = await verdict(g.goal.goal_id, agentId, -1, 2);
  assert.deepEqual(second, { score: 0, quarantined: true });
  assert.notEqual(await quarantinedAt(agentId), null);
  // The owner's actionable card in /questions.
  const qs = await rest(g.token, "GET", "/api/questions");
  assert.equal(qs.status, 200);
  const card = (qs.json.questions as { qid: string; origin: string; about?: unknown }[]).find(
    (q) => q.origin === "quarantine",
  );
  assert.ok(card, JSON.stringify(qs.json));
  // Answering "Lift quarantine" lifts it.
  const answered = await h.fetch(`/api/questions/${card.qid}/answer`, {
    method: "POST",
    headers: { Authorization: `Bearer ${g.token}`, "content-type": "application/json" },
    body: JSON.stringify({ answers: [{ selected_labels: ["Lift quarantine"] }] }),
  });
  assert.equal(answered.status, 200, await answered.clone().text());
  assert.equal(await quarantinedAt(agentId), null);
  const ev = await db.read(({ db: d }) =>
    d.event.findMany({ where: { goalId: g.goal.goal_id, name: "agent_unquarantined" } }),
  );
  assert.equal(ev.length, 1);
  assert.equal((JSON.parse(ev[0]?.dataJson ?? "{}") as Json).via, "owner_card");
});

test("the score rule: no evidence is 0.5 and never quarantines; an approval then a rejection (score 0) does", () => {
  assert.equal(rep.quarantines({ score: 0.5, verdicts: 0 }), false);
  assert.equal(rep.quarantines({ score: 0, verdicts: 1 }), false);
  assert.equal(rep.quarantines({ score: 0, verdicts: 2 }), true);
  assert.equal(rep.quarantines({ score: 0.3, verdicts: 5 }), false);
  const day = 86_400_000;
  const now = Date.now();
  // A seed of 0.35 and one approval 30 days old (half weight): 0.35 + 0.5.
  const s = rep.scoreOf(
    [
      { delta: 0.35, weight: 1, createdAt: new Date(now) },
      { delta: 1, weight: 1, createdAt: new Date(now - 30 * day) },
    ],
    now,
  );
  assert.ok(Math.abs(s - 0.85) < 1e-9);
});

test("unquarantine_agent (owner token) and POST /api/agents/:id/unquarantine: lifted, reputation unchanged; not_quarantined, not_found", async () => {
  const g = await goalWithAgents(h, 1);
  const agent = g.agents[1];
  assert.ok(agent);
  const agentId = Number(agent.id);
  await verdict(g.goal.goal_id, agentId, 1, 10);
  await verdict(g.goal.goal_id, agentId, -1, 11);
  assert.notEqual(await quarantinedAt(agentId), null);
  const before = await rest(g.token, "GET", `/api/agents/${agentId}/reputation`);
  assert.equal(before.status, 200);
  assert.deepEqual(
    { hash: before.json.config_hash, score: before.json.rolling_score, n: before.json.evidence_count },
    { hash: `agent:${agentId}`, score: 0, n: 2 },
  );
  assert.equal(before.json.quarantined, true);

  // Another owner: not_found over MCP and REST, nothing changed.
  const otherToken = await h.ownerToken("stranger@example.com");
  const stranger = await h.client(otherToken);
  const no = await stranger.callTool({ name: "unquarantine_agent", arguments: { agent_id: agentId } });
  assert.equal(errorCode(no), "not_found");
  assert.equal((await rest(otherToken, "POST", `/api/agents/${agentId}/unquarantine`)).code, "not_found");
  assert.equal((await rest(otherToken, "GET", `/api/agents/${agentId}/reputation`)).code, "not_found");
  assert.equal(
    errorCode(await g.owner.callTool({ name: "unquarantine_agent", arguments: { agent_id: 0 } })),
    "invalid_input",
  );
  assert.notEqual(await quarantinedAt(agentId), null);
  // An agent cannot call it (owner tool).
  const asAgent = await agent.client.callTool({
    name: "unquarantine_agent",
    arguments: { agent_id: agentId },
  });
  assert.equal(errorCode(asAgent), "unknown_tool");

  const ok = await g.owner.callTool({ name: "unquarantine_agent", arguments: { agent_id: agentId } });
  assert.deepEqual(sc(ok), { agent_id: agentId, status: "active" });
  assert.equal(await quarantinedAt(agentId), null);
  const again = await g.owner.callTool({ name: "unquarantine_agent", arguments: { agent_id: agentId } });
  assert.equal(errorCode(again), "not_quarantined");
  const after = await rest(g.token, "GET", `/api/agents/${agentId}/reputation`);
  assert.equal(after.json.rolling_score, 0, "reputation unchanged");
  assert.equal(after.json.evidence_count, 2);
  const row = await db.read(({ db: d }) => d.agent.findUniqueOrThrow({ where: { id: agentId } }));
  const owner = await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id: g.goal.goal_id } }));
  assert.equal(row.unquarantinedBy, owner.ownerId);

  // REST: quarantine again by a further failing verdict, lift over REST; twice is 409.
  await verdict(g.goal.goal_id, agentId, -1, 12);
  assert.notEqual(await quarantinedAt(agentId), null);
  const lifted = await rest(g.token, "POST", `/api/agents/${agentId}/unquarantine`);
  assert.equal(lifted.status, 200);
  assert.deepEqual(lifted.json, { agent_id: agentId, status: "active" });
  const twice = await rest(g.token, "POST", `/api/agents/${agentId}/unquarantine`);
  assert.equal(twice.status, 409);
  assert.equal(twice.code, "not_quarantined");
  assert.equal((await rest(g.token, "POST", "/api/agents/999999/unquarantine")).code, "not_found");
});

test("three concurrent lifts: exactly one wins", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  await verdict(g.goal.goal_id, agentId, -1, 20);
  await verdict(g.goal.goal_id, agentId, -1, 21);
  const results = await Promise.all(
    [0, 1, 2].map(() => g.owner.callTool({ name: "unquarantine_agent", arguments: { agent_id: agentId } })),
  );
  const codes = results.map((r) => errorCode(r) ?? "ok").sort();
  assert.deepEqual(codes, ["not_quarantined", "not_quarantined", "ok"]);
  const ev = await db.read(({ db: d }) =>
    d.event.count({ where: { goalId: g.goal.goal_id, name: "agent_unquarantined", agentId } }),
  );
  assert.equal(ev, 1);
});

test("list_peers shows a quarantined agent as `quarantined`, and `active` again once lifted", async () => {
  const g = await goalWithAgents(h, 2);
  const [coord, a, b] = g.agents;
  assert.ok(coord && a && b);
  type Peers = { peers: { agent_id: string; status: string }[] };
  const statusOf = async (viewer: typeof a, id: string) =>
    sc<Peers>(await viewer.client.callTool({ name: "list_peers", arguments: { scope: "all" } })).peers.find(
      (p) => p.agent_id === id,
    )?.status;
  assert.equal(await statusOf(b, a.id), "active");
  await verdict(g.goal.goal_id, Number(a.id), -1, 30);
  await verdict(g.goal.goal_id, Number(a.id), -1, 31);
  assert.equal(await statusOf(b, a.id), "quarantined");
  assert.equal(await statusOf(a, a.id), "quarantined", "the agent sees its own quarantine");
  // A teammate's default scope (team) shows it too.
  const team = sc<Peers>(await b.client.callTool({ name: "list_peers", arguments: {} }));
  assert.equal(team.peers.find((p) => p.agent_id === a.id)?.status, "quarantined");
  await g.owner.callTool({ name: "unquarantine_agent", arguments: { agent_id: Number(a.id) } });
  assert.equal(await statusOf(b, a.id), "active");
});

test("the quarantine card's Terminate: the agent and its subtree get terminate sentinels, its leader is told", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  const coordId = Number(g.agents[0]?.id);
  const child = await h.createAgent({ goal: g.goal.goal_id, name: "under-quarantined", leader: agentId });
  await verdict(g.goal.goal_id, agentId, -1, 40);
  await verdict(g.goal.goal_id, agentId, -1, 41);
  const qs = await rest(g.token, "GET", "/api/questions");
  const card = (
    qs.json.questions as {
      qid: string;
      origin: string;
      asker: { agent_id: string };
      questions: { options: { label: string }[] }[];
    }[]
  ).find((q) => q.origin === "quarantine" && q.asker.agent_id === String(agentId));
  assert.ok(card, JSON.stringify(qs.json));
  assert.deepEqual(
    card.questions[0]?.options.map((o) => o.label),
    ["Lift quarantine", "Keep quarantined", "Terminate"],
  );
  const answered = await h.fetch(`/api/questions/${card.qid}/answer`, {
    method: "POST",
    headers: { Authorization: `Bearer ${g.token}`, "content-type": "application/json" },
    body: JSON.stringify({ answers: [{ selected_labels: ["Terminate"] }] }),
  });
  assert.equal(answered.status, 200, await answered.clone().text());
  const rows = await db.read(({ db: d }) =>
    d.agent.findMany({ where: { id: { in: [agentId, child.agent_id] } }, orderBy: { id: "asc" } }),
  );
  assert.ok(
    rows.every((r) => r.terminatePostedAt !== null),
    "sentinels to the agent and its child",
  );
  const sentinels = await db.read(({ db: d }) =>
    d.message.count({ where: { recipientAgentId: { in: [agentId, child.agent_id] }, kind: "terminate" } }),
  );
  assert.equal(sentinels, 2);
  const forced = await db.read(({ db: d }) =>
    d.event.findMany({ where: { goalId: g.goal.goal_id, name: "terminate.forced", agentId } }),
  );
  assert.equal((JSON.parse(forced[0]?.dataJson ?? "{}") as Json).reason, "owner_quarantine");
  const told = await db.read(({ db: d }) =>
    d.message.findMany({
      where: { recipientAgentId: coordId, content: { contains: "terminated your quarantined" } },
    }),
  );
  assert.equal(told.length, 1);
  // list_peers: terminating wins over quarantined.
  const peers = sc<{ peers: { agent_id: string; status: string }[] }>(
    await (g.agents[0] as (typeof g.agents)[number]).client.callTool({
      name: "list_peers",
      arguments: { scope: "all" },
    }),
  );
  assert.equal(peers.peers.find((p) => p.agent_id === String(agentId))?.status, "terminating");
});

test("an approval never quarantines: a rejection then an approval (score 0, two verdicts) leaves the agent free; the next rejection quarantines", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  assert.deepEqual(await verdict(g.goal.goal_id, agentId, -1, 50), { score: 0, quarantined: false });
  // Σ ≈ 0 (the older −1 has decayed a hair more than the +1, so the score is 0 or a sliver above it).
  const approved = await verdict(g.goal.goal_id, agentId, 1, 51);
  assert.ok(approved.score < 0.3, String(approved.score));
  assert.equal(approved.quarantined, false);
  assert.equal(await quarantinedAt(agentId), null);
  assert.equal((await verdict(g.goal.goal_id, agentId, -1, 52)).quarantined, true);
});

test("GET /api/agents/:id/reputation: history, newest first, each entry with the domain score it left", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  await verdict(g.goal.goal_id, agentId, 1, 60);
  await verdict(g.goal.goal_id, agentId, -1, 61);
  const r = await rest(g.token, "GET", `/api/agents/${agentId}/reputation`);
  assert.equal(r.status, 200);
  type Entry = { kind: string; domain: string; delta: number; task_id: number | null; score_after: number };
  const history = r.json.history as Entry[];
  assert.deepEqual(
    history.map((e) => [e.kind, e.domain, e.delta, e.task_id]),
    [
      ["verdict", "qa", -1, 61],
      ["verdict", "qa", 1, 60],
    ],
  );
  assert.ok(Math.abs((history[1]?.score_after ?? 0) - 1) < 1e-6, "after the approval: 1");
  assert.ok((history[0]?.score_after ?? 1) < 0.01, "after the rejection: ~0");
  // The goal page's agent rows carry the same history for the tooltip.
  const { listGoalAgents } = await import("@/lib/domain/agents/agents");
  const row = (await listGoalAgents(g.goal.goal_id)).find((a) => a.agent_id === agentId);
  assert.deepEqual(
    row?.reputation.history.map((e) => e.task_id),
    [61, 60],
  );
});

test("lifting elsewhere closes the owner's pending quarantine card", async () => {
  const g = await goalWithAgents(h, 1);
  const agentId = Number(g.agents[1]?.id);
  await verdict(g.goal.goal_id, agentId, -1, 70);
  await verdict(g.goal.goal_id, agentId, -1, 71);
  const pendingCards = async () =>
    (
      (await rest(g.token, "GET", "/api/questions?status=pending")).json.questions as {
        origin: string;
        asker: { agent_id: string };
      }[]
    ).filter((q) => q.origin === "quarantine" && q.asker.agent_id === String(agentId)).length;
  assert.equal(await pendingCards(), 1);
  assert.equal((await rest(g.token, "POST", `/api/agents/${agentId}/unquarantine`)).status, 200);
  assert.equal(await pendingCards(), 0);
  const lifted = await db.read(({ db: d }) =>
    d.event.count({ where: { goalId: g.goal.goal_id, name: "agent_unquarantined", agentId } }),
  );
  assert.equal(lifted, 1, "closing the card lifts nothing twice");
});

test("ended another way (its leader's terminate_child): the owner's quarantine card and the agent's own questions close", async () => {
  const g = await goalWithAgents(h, 1);
  const [coordinator, agent] = g.agents;
  assert.ok(coordinator && agent);
  const agentId = Number(agent.id);
  // The agent asks its leader something and waits; then it is quarantined.
  const asking = agent.client.callTool({
    name: "ask_user",
    arguments: { questions: [DB_Q] },
  });
  for (let i = 0; i < 100; i++) {
    const n = await db.read(({ db: d }) =>
      d.question.count({ where: { askerId: agentId, status: "pending" } }),
    );
    if (n > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await verdict(g.goal.goal_id, agentId, -1, 80);
  await verdict(g.goal.goal_id, agentId, -1, 81);
  const pending = () =>
    db.read(({ db: d }) => d.question.findMany({ where: { askerId: agentId }, orderBy: { origin: "asc" } }));
  assert.deepEqual(
    (await pending()).map((q) => [q.origin, q.status]),
    [
      ["agent", "pending"],
      ["quarantine", "pending"],
    ],
  );
  const t = await coordinator.client.callTool({
    name: "terminate_child",
    arguments: { agent_id: agent.id, force: true },
  });
  assert.equal(errorCode(t), undefined, JSON.stringify(t));
  const after = await pending();
  assert.deepEqual(
    after.map((q) => [q.origin, q.status, q.answeredBy]),
    [
      ["agent", "declined", "system"],
      ["quarantine", "declined", "system"],
    ],
  );
  assert.match(after[1]?.declineReason ?? "", /was terminated/);
  // The blocked ask_user returns; the owner's /questions no longer lists the card.
  assert.equal(errorCode(await asking), "user_declined");
  const cards = (await rest(g.token, "GET", "/api/questions?status=pending")).json.questions as {
    asker: { agent_id: string };
  }[];
  assert.equal(cards.filter((q) => q.asker.agent_id === String(agentId)).length, 0);
});
