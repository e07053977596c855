// Goals end to end through the real surfaces: create_goal, propose_task_tree → #approvals → owner
// approve / reject over REST, claim_task (races), complete_task → auto / peer / command verification
// (the `npm run runner` worker), reputation and quarantine, and the dashboard endpoints.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  errorCode,
  goalWithAgents,
  mcpClient,
  ROOT,
  sc,
  startServer,
  type TestServer,
} from "../helpers/server";

let server: TestServer;
let registerAgent: typeof import("@/lib/domain/agents/agents").registerAgent;
let claimTask: typeof import("@/lib/domain/tasks/claim-task").claimTask;
let db: typeof import("@/lib/db");
const runners: ChildProcess[] = [];
const clients: Client[] = [];

before(async () => {
  // issue 11: a verification's lease is the hub's now (its timeout + this grace).
  server = await startServer({ env: { SWITCHBOARD_RUNNER_LEASE_GRACE_S: "1" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  ({ registerAgent } = await import("@/lib/domain/agents/agents"));
  ({ claimTask } = await import("@/lib/domain/tasks/claim-task"));
});
after(async () => {
  for (const r of runners) if (r.exitCode === null) r.kill("SIGKILL");
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await db?.disconnect();
  await server?.stop();
});

type Json = Record<string, unknown>;

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await fetch(`${server.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as Json & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

type TaskView = {
  id: number;
  title: string;
  status: string;
  parent_id: number | null;
  depth: number;
  children: TaskView[];
  verdict_reason: string | null;
  assignee_id: number | null;
};
const flat = (nodes: TaskView[]): TaskView[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

async function tasksOf(token: string, goalId: number) {
  const r = await rest(token, "GET", `/api/goals/${goalId}`);
  assert.equal(r.status, 200);
  return flat(r.json.tasks_tree as TaskView[]);
}

type Inbox = { messages: { kind: string; content: string; from: string }[]; ack: number };
async function inbox(c: Client) {
  return sc<Inbox>(await c.callTool({ name: "read_inbox", arguments: {} }));
}

const node = (title: string, extra: Json = {}) => ({
  title,
  description: `Description of ${title}, long enough.`,
  ...extra,
});

/** A goal whose coordinator's tree was approved: returns the task ids by title. */
async function approvedGoal(tree: Json, n = 3, email?: string) {
  const g = await goalWithAgents(server, n, email);
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const p = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: g.goal.goal_id, tree },
  });
  assert.equal(errorCode(p), undefined, JSON.stringify(p));
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const a = await rest(g.token, "POST", `/api/approvals/${id}/approve`, {});
  assert.equal(a.status, 200, JSON.stringify(a.json));
  const tasks = await tasksOf(g.token, g.goal.goal_id);
  return { ...g, ids: Object.fromEntries(tasks.map((t) => [t.title, t.id])) as Record<string, number> };
}

test("create_goal takes every input over MCP and REST, and refuses bad ones", async () => {
  const token = await server.ownerToken();
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const r = await owner.callTool({
    name: "create_goal",
    arguments: {
      title: "Keep the docs accurate",
      description: "Docs must match the code at all times.",
      budget_dollars_cents: 500,
      budget_tokens: 200_000,
      max_spawn_depth: 5,
      coordinator_config: "default",
    },
  });
  const goal = sc<{ goal_id: number; slug: string; channel_id: number; coordinator_agent_id: number }>(r);
  const snap = await rest(token, "GET", `/api/goals/${goal.goal_id}`);
  const g = snap.json.goal as Json;
  assert.deepEqual(
    [
      g.budget_dollars_cents,
      g.budget_tokens,
      g.max_spawn_depth,
      g.coordinator_config,
      g.status,
      g.channel_id,
    ],
    [500, 200_000, 5, "default", "draft", goal.channel_id],
  );
  const defaults = await rest(token, "POST", "/api/goals", {
    title: "Defaults goal",
    description: "Uses the default values.",
  });
  assert.equal(defaults.status, 201);
  const d = (await rest(token, "GET", `/api/goals/${defaults.json.goal_id}`)).json.goal as Json;
  assert.deepEqual([d.max_spawn_depth, d.coordinator_config, d.budget_dollars_cents], [3, "default", null]);
  for (const bad of [
    { max_spawn_depth: 0 },
    { max_spawn_depth: 11 },
    { coordinator_config: "no-such-template" },
    { budget_dollars_cents: -1 },
    { budget_tokens: 1.5 },
  ]) {
    const res = await owner.callTool({
      name: "create_goal",
      arguments: { title: "Bad goal", description: "A goal with a bad field.", ...bad },
    });
    assert.equal(errorCode(res), "invalid_input", JSON.stringify(bad));
    const viaRest = await rest(token, "POST", "/api/goals", {
      title: "Bad goal",
      description: "A goal with a bad field.",
      ...bad,
    });
    assert.equal(viaRest.status, 422, JSON.stringify(bad));
  }
});

test("reject with a reason, the coordinator gets it, proposes again; approval materializes the tree", async () => {
  const g = await goalWithAgents(server, 1);
  const [coordinator, worker] = g.agents;
  assert.ok(coordinator && worker);
  const goalId = g.goal.goal_id;
  const tree = node("Audit the docs", {
    acceptance_criteria: "Every page checked",
    billing_code: "docs",
    budget_dollars_cents: 300,
    children: [
      node("Check the README", { verifier_config: { kind: "peer", agent_id: Number(coordinator.id) } }),
      node("Check the API docs", { children: [node("Check REST endpoints", { budget_tokens: 1000 })] }),
    ],
  });
  const first = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: goalId, reasoning: "Split by area", tree },
  });
  const p1 = sc<{ proposal_message_id: number; channel_id: number }>(first);
  assert.ok(p1.proposal_message_id > 0 && p1.channel_id > 0);
  // A retry with identical content (a restarted coordinator) finds the pending proposal.
  const again = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: goalId, reasoning: "Split by area", tree },
  });
  assert.equal(sc<{ proposal_message_id: number }>(again).proposal_message_id, p1.proposal_message_id);
  // Different content while one is pending.
  const other = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: goalId, tree: node("Something else") },
  });
  assert.equal(errorCode(other), "ErrProposalPending");
  // Only the coordinator proposes; another goal is not_found; a peer verifier must be in the goal.
  assert.equal(
    errorCode(
      await worker.client.callTool({ name: "propose_task_tree", arguments: { goal_id: goalId, tree } }),
    ),
    "ErrNotCoordinator",
  );
  assert.equal(
    errorCode(
      await coordinator.client.callTool({
        name: "propose_task_tree",
        arguments: { goal_id: goalId + 1000, tree },
      }),
    ),
    "not_found",
  );
  const pending = await rest(g.token, "GET", "/api/approvals?status=pending");
  const listed = (
    pending.json as unknown as { proposal_message_id: number; task_count: number; content_hash: string }[]
  ).find((p) => p.proposal_message_id === p1.proposal_message_id);
  assert.ok(listed);
  assert.equal(listed.task_count, 4);
  // Nothing exists before a decision.
  assert.equal((await tasksOf(g.token, goalId)).length, 0);

  // Another owner cannot decide (indistinguishable from a missing proposal).
  const stranger = await server.ownerToken("stranger@example.com");
  const refused = await rest(stranger, "POST", `/api/approvals/${p1.proposal_message_id}/approve`, {});
  assert.deepEqual([refused.status, refused.code], [404, "not_found"]);
  assert.equal((await rest(stranger, "GET", "/api/approvals?status=pending")).json.length, 0);
  // A decision on other content than the proposal's is refused.
  const stale = await rest(g.token, "POST", `/api/approvals/${p1.proposal_message_id}/approve`, {
    content_hash: "0".repeat(64),
  });
  assert.deepEqual([stale.status, stale.code], [409, "ErrProposalChanged"]);
  // Reject needs a reason.
  assert.equal(
    (await rest(g.token, "POST", `/api/approvals/${p1.proposal_message_id}/reject`, {})).status,
    422,
  );
  const rej = await rest(g.token, "POST", `/api/approvals/${p1.proposal_message_id}/reject`, {
    reason: "Split the API docs by endpoint",
    content_hash: listed.content_hash,
  });
  assert.equal(rej.status, 200, JSON.stringify(rej.json));
  assert.equal((await tasksOf(g.token, goalId)).length, 0);
  const box = await inbox(coordinator.client);
  const note = box.messages.find((m) => m.kind === "proposal_rejected");
  assert.ok(note);
  assert.match(note.content, /Split the API docs by endpoint/);
  // Single use.
  const twice = await rest(g.token, "POST", `/api/approvals/${p1.proposal_message_id}/approve`, {});
  assert.deepEqual([twice.status, twice.code], [409, "ErrProposalNotPending"]);

  const second = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: goalId, reasoning: "Revised", tree },
  });
  const p2 = sc<{ proposal_message_id: number }>(second).proposal_message_id;
  assert.notEqual(p2, p1.proposal_message_id);
  const ok = await rest(g.token, "POST", `/api/approvals/${p2}/approve`, {});
  assert.equal(ok.status, 200);
  assert.equal((ok.json.task_ids as number[]).length, 4);
  assert.equal(
    (await rest(g.token, "POST", `/api/approvals/${p2}/reject`, { reason: "too late" })).code,
    "ErrProposalNotPending",
  );
  const snap = await rest(g.token, "GET", `/api/goals/${goalId}`);
  assert.equal((snap.json.goal as Json).status, "active");
  const roots = snap.json.tasks_tree as TaskView[];
  assert.equal(roots.length, 1);
  const root = roots[0];
  assert.ok(root);
  assert.deepEqual(
    flat(roots).map((t) => [t.title, t.depth, t.status]),
    [
      ["Audit the docs", 0, "approved"],
      ["Check the README", 1, "approved"],
      ["Check the API docs", 1, "approved"],
      ["Check REST endpoints", 2, "approved"],
    ],
  );
  assert.equal(root.children[1]?.children[0]?.parent_id, root.children[1]?.id);
  const decided = (await rest(g.token, "GET", "/api/approvals?status=decided")).json as unknown as {
    proposal_message_id: number;
    status: string;
  }[];
  assert.deepEqual(
    decided
      .filter((d) => [p1.proposal_message_id, p2].includes(d.proposal_message_id))
      .map((d) => d.status)
      .sort(),
    ["approved", "rejected"],
  );
  // Ancestry snapshot: the deepest task carries its ancestors, root first.
  const anc = await db.read(({ db: d }) => d.goalTask.findFirst({ where: { goalId, depth: 2 } }));
  assert.deepEqual(
    (JSON.parse(anc?.ancestry ?? "[]") as { title: string }[]).map((a) => a.title),
    ["Audit the docs", "Check the API docs"],
  );
  // The goal channel shows each transition.
  const feed = (await rest(g.token, "GET", `/api/goals/${goalId}/messages`)).json as unknown as {
    messages?: { content: string; channel: string | null }[];
  };
  const posts = (feed.messages ?? (feed as unknown as { content: string; channel: string | null }[]))
    .filter((m) => m.channel === `#goal-${g.goal.slug}`)
    .map((m) => m.content);
  assert.ok(posts.some((c) => /rejected by the owner/.test(c)));
  assert.ok(posts.some((c) => /approved: 4 tasks created/.test(c)));
});

test("concurrent decisions on one proposal: exactly one applies, the tree exists once", async () => {
  const g = await goalWithAgents(server, 0);
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const p = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: g.goal.goal_id, tree: node("Once", { children: [node("Only once")] }) },
  });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      i % 2
        ? rest(g.token, "POST", `/api/approvals/${id}/approve`, {})
        : rest(g.token, "POST", `/api/approvals/${id}/reject`, { reason: "no" }),
    ),
  );
  assert.equal(results.filter((r) => r.status === 200).length, 1);
  assert.ok(results.filter((r) => r.status !== 200).every((r) => r.code === "ErrProposalNotPending"));
  const tasks = await tasksOf(g.token, g.goal.goal_id);
  const approved = results.find((r) => r.status === 200)?.json.status === "approved";
  assert.equal(tasks.length, approved ? 2 : 0);
});

test("ancestry snapshots stay within 16 KB on a deep tree of long descriptions", async () => {
  let tree: Json = node("Leaf task", {});
  for (let i = 14; i >= 0; i--)
    tree = node(`Level ${i}`, { description: `${"x".repeat(15_000)} level ${i}`, children: [tree] });
  const g = await approvedGoal(tree, 0);
  const rows = await db.read(({ db: d }) => d.goalTask.findMany({ where: { goalId: g.goal.goal_id } }));
  assert.equal(rows.length, 16);
  for (const r of rows)
    assert.ok(Buffer.byteLength(r.ancestry) <= 16 * 1024, `task ${r.id}: ${r.ancestry.length}`);
  const leaf = rows.find((r) => r.title === "Leaf task");
  const titles = (JSON.parse(leaf?.ancestry ?? "[]") as { title: string }[]).map((a) => a.title);
  assert.equal(titles.at(-1), "Level 14"); // the nearest ancestors are kept
});

test("claim_task: ErrAlreadyClaimed, ErrTaskNotApproved, not_found for another goal's task", async () => {
  const g = await approvedGoal(node("Root", { children: [node("Child one"), node("Child two")] }), 2);
  const [, a, b] = g.agents;
  assert.ok(a && b);
  const id = g.ids["Child one"] as number;
  const won = await a.client.callTool({ name: "claim_task", arguments: { task_id: id } });
  const out = sc<{ task_id: number; status: string; claimed_at: string }>(won);
  assert.deepEqual([out.task_id, out.status], [id, "claimed"]);
  assert.ok(!Number.isNaN(Date.parse(out.claimed_at)));
  assert.equal(
    errorCode(await b.client.callTool({ name: "claim_task", arguments: { task_id: id } })),
    "ErrAlreadyClaimed",
  );
  assert.equal(
    errorCode(await a.client.callTool({ name: "claim_task", arguments: { task_id: id } })),
    "ErrAlreadyClaimed",
  );
  const two = g.ids["Child two"] as number;
  const cancelled = await rest(g.token, "POST", `/api/goals/${g.goal.goal_id}/tasks/${two}/cancel`, {});
  assert.equal(cancelled.status, 200);
  assert.equal(
    errorCode(await b.client.callTool({ name: "claim_task", arguments: { task_id: two } })),
    "ErrTaskNotApproved",
  );
  const elsewhere = await goalWithAgents(server, 1);
  const c = elsewhere.agents[1];
  assert.ok(c);
  assert.equal(
    errorCode(await c.client.callTool({ name: "claim_task", arguments: { task_id: id } })),
    "not_found",
  );
  assert.equal(
    errorCode(await a.client.callTool({ name: "claim_task", arguments: { task_id: 99_999_999 } })),
    "not_found",
  );
});

/** `n` agents registered straight through the domain (the CLI would take a second each). */
async function manyAgents(goalId: number, n: number, prefix: string) {
  const out: { id: number; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await registerAgent({ goalId, name: `${prefix}-${i}`, role: "racer" });
    out.push({ id: r.agent_id, key: r.api_key });
  }
  return out;
}

test("100 agents race claim_task over HTTP, across two server processes: exactly one wins, every time", async () => {
  const children = Array.from({ length: 3 }, (_, i) => node(`Race task ${i}`));
  const g = await approvedGoal(node("Race root", { children }), 0);
  const racers = await manyAgents(g.goal.goal_id, 100, "http-racer");
  // Half the agents talk to a second instance on the same database.
  const second = await startServer({ shareDatabaseWith: server });
  try {
    const conns = await Promise.all(racers.map((r, i) => mcpClient(i % 2 ? second.url : server.url, r.key)));
    clients.push(...conns);
    for (let i = 0; i < 3; i++) {
      const id = g.ids[`Race task ${i}`] as number;
      const results = await Promise.all(
        conns.map((c) => c.callTool({ name: "claim_task", arguments: { task_id: id } })),
      );
      const codes = results.map(errorCode);
      assert.equal(codes.filter((c) => c === undefined).length, 1, `task ${id}: ${codes.join(",")}`);
      assert.equal(codes.filter((c) => c === "ErrAlreadyClaimed").length, 99);
    }
    const claimed = await db.read(({ db: d }) =>
      d.event.count({ where: { goalId: g.goal.goal_id, name: "task_claimed" } }),
    );
    assert.equal(claimed, 3);
  } finally {
    await second.stop();
  }
});

test("the claim race at the domain level, repeated (100 concurrent claims per task)", async () => {
  const reps = Number(process.env.TEST_CLAIM_REPS ?? 100);
  const children = Array.from({ length: reps }, (_, i) => node(`Domain race ${i}`));
  const g = await approvedGoal(node("Domain race root", { children }), 0);
  const racers = await manyAgents(g.goal.goal_id, 100, "domain-racer");
  for (let i = 0; i < reps; i++) {
    const id = g.ids[`Domain race ${i}`] as number;
    const results = await Promise.allSettled(
      racers.map((r) => claimTask({ agentId: r.id, goalId: g.goal.goal_id }, id)),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter(
      (r) => r.status === "rejected" && (r.reason as { code?: string }).code === "ErrAlreadyClaimed",
    );
    assert.deepEqual([won.length, lost.length], [1, 99], `repetition ${i}`);
  }
});

test("complete_task → auto verification: done at once, +1 evidence, the goal completes", async () => {
  const g = await approvedGoal(node("Only task", { billing_code: "docs" }), 1);
  const [coordinator, a] = g.agents;
  assert.ok(coordinator && a);
  const id = g.ids["Only task"] as number;
  // Only the holder completes, and only a claimed task.
  assert.equal(
    errorCode(
      await a.client.callTool({ name: "complete_task", arguments: { task_id: id, summary: "done" } }),
    ),
    "ErrNotTaskHolder",
  );
  await a.client.callTool({ name: "claim_task", arguments: { task_id: id } });
  assert.equal(
    errorCode(
      await coordinator.client.callTool({ name: "complete_task", arguments: { task_id: id, summary: "x" } }),
    ),
    "ErrNotTaskHolder",
  );
  const done = await a.client.callTool({
    name: "complete_task",
    arguments: { task_id: id, summary: "Checked every page", artifacts: ["docs/README.md"] },
  });
  assert.deepEqual(sc(done), { task_id: id, status: "done", verifier: "auto" });
  // The goal completed with its only task: its agents' keys are retired (issue 16).
  await assert.rejects(
    a.client.callTool({ name: "complete_task", arguments: { task_id: id, summary: "again" } }),
    /agent_retired/,
  );
  const ev = await db.read(({ db: d }) => d.reputationEvidence.findMany({ where: { taskId: id } }));
  assert.deepEqual(
    ev.map((e) => [e.configHash, e.domain, e.delta]),
    [[`agent:${a.id}`, "docs", 1]],
  );
  const snap = await rest(g.token, "GET", `/api/goals/${g.goal.goal_id}`);
  assert.equal((snap.json.goal as Json).status, "completed");
  const listed = ((await rest(g.token, "GET", "/api/goals")).json as unknown as Json[]).find(
    (r) => r.id === g.goal.goal_id,
  );
  assert.equal(listed?.task_count, 1);
  // A completed goal takes no new tree (its coordinator's key is retired: ErrGoalNotOpen at the domain
  // level is in tests/in-process/goal-lifecycle.test.ts); a done task cannot be cancelled.
  await assert.rejects(
    coordinator.client.callTool({
      name: "propose_task_tree",
      arguments: { goal_id: g.goal.goal_id, tree: node("Late task") },
    }),
    /agent_retired/,
  );
  const cancel = await rest(g.token, "POST", `/api/goals/${g.goal.goal_id}/tasks/${id}/cancel`, {});
  assert.deepEqual([cancel.status, cancel.code], [409, "ErrTaskTerminal"]);
});

test("peer verification: request in the peer's inbox, verify_task errors, reject → failed, coordinator told, quarantine", async () => {
  const g0 = await goalWithAgents(server, 3);
  const [coordinator, holder, peer, outsider] = g0.agents;
  assert.ok(coordinator && holder && peer && outsider);
  const peerCfg = { kind: "peer", agent_id: Number(peer.id) };
  const tree = node("Peer root", {
    children: [
      node("Peer approve", { billing_code: "qa", verifier_config: peerCfg }),
      node("Peer reject", { billing_code: "qa", verifier_config: peerCfg }),
      node("Command task", { verifier_config: { kind: "command", cmd: "true" } }),
      node("Later task"),
    ],
  });
  const p = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: g0.goal.goal_id, tree },
  });
  await rest(
    g0.token,
    "POST",
    `/api/approvals/${sc<{ proposal_message_id: number }>(p).proposal_message_id}/approve`,
    {},
  );
  const ids = Object.fromEntries(
    (await tasksOf(g0.token, g0.goal.goal_id)).map((t) => [t.title, t.id]),
  ) as Record<string, number>;
  const [ok, bad, cmd] = [ids["Peer approve"], ids["Peer reject"], ids["Command task"]] as number[];
  for (const id of [ok, bad, cmd])
    await holder.client.callTool({ name: "claim_task", arguments: { task_id: id } });

  const verify = (c: Client, task_id: number | undefined, verdict: string, reason?: string) =>
    c.callTool({ name: "verify_task", arguments: { task_id, verdict, ...(reason ? { reason } : {}) } });
  assert.equal(errorCode(await verify(peer.client, ok, "approve")), "ErrTaskNotAwaitingVerification");
  const finished = await holder.client.callTool({
    name: "complete_task",
    arguments: { task_id: ok, summary: "All good" },
  });
  assert.deepEqual(sc(finished), { task_id: ok, status: "awaiting_verification", verifier: "peer" });
  const req = (await inbox(peer.client)).messages.find((m) => m.kind === "verification_request");
  assert.ok(req);
  assert.match(req.content, new RegExp(`task #${ok}`));
  assert.equal(errorCode(await verify(outsider.client, ok, "approve")), "ErrNotPermittedVerifier");
  assert.equal(errorCode(await verify(holder.client, ok, "approve")), "ErrNotPermittedVerifier");
  assert.deepEqual(sc(await verify(peer.client, ok, "approve", "Looks right")), {
    task_id: ok,
    new_status: "done",
  });
  assert.equal(errorCode(await verify(peer.client, ok, "approve")), "ErrTaskNotAwaitingVerification");
  // A command-verified task takes no peer verdict (no runner runs in this test).
  await holder.client.callTool({ name: "complete_task", arguments: { task_id: cmd, summary: "Ran it" } });
  assert.equal(errorCode(await verify(peer.client, cmd, "approve")), "ErrVerifierNotConfigured");

  // Reject: failed, the coordinator is told, −1 evidence; the holder's "qa" score falls to 0 → quarantined.
  await holder.client.callTool({ name: "complete_task", arguments: { task_id: bad, summary: "Half done" } });
  assert.deepEqual(sc(await verify(peer.client, bad, "reject", "Missing the index page")), {
    task_id: bad,
    new_status: "failed",
  });
  const told = (await inbox(coordinator.client)).messages.find((m) => m.kind === "task_failed");
  assert.ok(told);
  assert.match(told.content, /Missing the index page/);
  const ev = await db.read(({ db: d }) =>
    d.reputationEvidence.findMany({ where: { configHash: `agent:${holder.id}` }, orderBy: { id: "asc" } }),
  );
  assert.deepEqual(
    ev.map((e) => [e.domain, e.delta]),
    [
      ["qa", 1],
      ["qa", -1],
    ],
  );
  const later = ids["Later task"] as number;
  const q = await holder.client.callTool({ name: "claim_task", arguments: { task_id: later } });
  assert.equal(errorCode(q), "ErrAgentQuarantined");
  // Others still claim it.
  assert.equal(
    errorCode(await outsider.client.callTool({ name: "claim_task", arguments: { task_id: later } })),
    undefined,
  );
  const snap = await rest(g0.token, "GET", `/api/goals/${g0.goal.goal_id}`);
  const holderView = (snap.json.spawned_agents as { agent_id: number; quarantined: boolean }[]).find(
    (x) => String(x.agent_id) === holder.id,
  );
  assert.equal(holderView?.quarantined, true);
});

let runnerToken: string | undefined;
async function startRunner(extra: Record<string, string> = {}) {
  // issue 11: a runner reaches the hub over HTTP with a runner token, never the database.
  runnerToken ??= (await (await import("@/lib/domain/runner/tokens")).createRunnerToken({ name: "verify" }))
    .token;
  const { DATABASE_URL: _db, ...hostEnv } = server.env;
  const child = spawn(process.execPath, [path.join(ROOT, "bin/runner.mjs")], {
    cwd: ROOT,
    env: {
      ...hostEnv,
      SWITCHBOARD_RUNNER_HUB: server.url,
      SWITCHBOARD_RUNNER_TOKEN: runnerToken,
      SWITCHBOARD_RUNNER_WORK_DIR: path.join(server.env.SWITCHBOARD_DATA_DIR ?? "/tmp", "..", "runner-work"),
      LOG_LEVEL: "warn",
      ...extra,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  runners.push(child);
  return child;
}

test("command verification by `npm run runner`: exit 0 approves, a failure or a timeout fails with the reason", async () => {
  const cmd = (c: string, extra: Json = {}) => ({ verifier_config: { kind: "command", cmd: c, ...extra } });
  const tree = node("Cmd root", {
    children: [
      node("Cmd pass", {
        billing_code: "build",
        ...cmd(
          'test "$SWITCHBOARD_TASK_TITLE" = "Cmd pass" && test -n "$SWITCHBOARD_TASK_SUMMARY" && test -z "$DATABASE_URL" && test "$(basename "$PWD")" = "lib"',
          { cwd: "lib" },
        ),
      }),
      node("Cmd fail", { billing_code: "build", ...cmd("echo broken >&2; exit 3") }),
      node("Cmd slow", { billing_code: "build", ...cmd("sleep 30", { timeout_sec: 1 }) }),
      node("Cmd crash", { billing_code: "build", ...cmd("kill -SEGV $$") }),
    ],
  });
  const g = await approvedGoal(tree, 1);
  const a = g.agents[1];
  assert.ok(a);
  const names = ["Cmd pass", "Cmd fail", "Cmd slow", "Cmd crash"];
  for (const t of names) {
    const id = g.ids[t] as number;
    await a.client.callTool({ name: "claim_task", arguments: { task_id: id } });
    const r: unknown = await a.client.callTool({
      name: "complete_task",
      arguments: { task_id: id, summary: `Did ${t}` },
    });
    assert.equal(sc<{ status: string }>(r).status, "awaiting_verification");
  }
  // Two runners share the queue; each job is verified exactly once.
  const r1 = await startRunner({ SWITCHBOARD_RUNNER_ID: "r1", SWITCHBOARD_WORKSPACE: ROOT });
  const r2 = await startRunner({ SWITCHBOARD_RUNNER_ID: "r2", SWITCHBOARD_WORKSPACE: ROOT });
  const final = await until("all command verdicts", async () => {
    const tasks = (await tasksOf(g.token, g.goal.goal_id)).filter((t) => names.includes(t.title));
    return tasks.every((t) => t.status === "done" || t.status === "failed") ? tasks : undefined;
  });
  const by = Object.fromEntries(final.map((t) => [t.title, t]));
  assert.equal(by["Cmd pass"]?.status, "done", by["Cmd pass"]?.verdict_reason ?? "");
  assert.equal(by["Cmd fail"]?.status, "failed");
  assert.match(by["Cmd fail"]?.verdict_reason ?? "", /exit code 3[\s\S]*broken/);
  assert.equal(by["Cmd slow"]?.status, "failed");
  assert.match(by["Cmd slow"]?.verdict_reason ?? "", /timed out after 1s/);
  assert.equal(by["Cmd crash"]?.status, "failed");
  assert.match(by["Cmd crash"]?.verdict_reason ?? "", /crashed: killed by SIGSEGV/);
  const events = await rest(g.token, "GET", `/api/goals/${g.goal.goal_id}/events?limit=500`);
  const verdicts = (events.json.events as { event?: string; name?: string }[]).filter((e) =>
    ["task_done", "task_failed"].includes(e.event ?? e.name ?? ""),
  );
  assert.equal(verdicts.length, 4);
  const ev = await db.read(({ db: d }) =>
    d.reputationEvidence.findMany({ where: { configHash: `agent:${a.id}`, domain: "build" } }),
  );
  assert.deepEqual(ev.map((e) => e.delta).sort(), [-1, -1, -1, 1]);
  // SIGTERM: the runners finish their loop and exit cleanly.
  for (const r of [r1, r2]) {
    const exited = new Promise((res) => r.once("exit", res));
    r.kill("SIGTERM");
    assert.equal(await exited, 0);
  }
});

test("a verification command cannot reach the hub's data directory or leave the task's workspace", async () => {
  const data = server.env.SWITCHBOARD_DATA_DIR ?? "";
  const canary = `canary-${Math.random().toString(36).slice(2)}`;
  // Even a world-readable file in the data directory: the directory itself is the server's alone.
  fs.writeFileSync(path.join(data, "canary.txt"), canary, { mode: 0o644 });
  const dbFile = (server.env.DATABASE_URL ?? "").replace(/^file:/, "");
  const peek = [
    `cat ${data}/canary.txt`,
    `cat ${data}/setup.token`,
    dbFile ? `head -c 64 ${dbFile}` : "true",
    'echo "env: $DATABASE_URL $SWITCHBOARD_RUNNER_TOKEN"',
    "exit 1",
  ].join("; ");
  const tree = node("Sandbox root", {
    children: [
      node("Peek", { verifier_config: { kind: "command", cmd: peek } }),
      node("Escape", { verifier_config: { kind: "command", cmd: "true", cwd: "../.." } }),
    ],
  });
  const g = await approvedGoal(tree, 1);
  const a = g.agents[1];
  assert.ok(a);
  for (const t of ["Peek", "Escape"]) {
    const id = g.ids[t] as number;
    await a.client.callTool({ name: "claim_task", arguments: { task_id: id } });
    await a.client.callTool({ name: "complete_task", arguments: { task_id: id, summary: `Did ${t}` } });
  }
  const r = await startRunner({ SWITCHBOARD_RUNNER_ID: "sandbox" });
  const final = await until("sandbox verdicts", async () => {
    const tasks = (await tasksOf(g.token, g.goal.goal_id)).filter((t) =>
      ["Peek", "Escape"].includes(t.title),
    );
    return tasks.every((t) => t.status === "failed") ? tasks : undefined;
  });
  const by = Object.fromEntries(final.map((t) => [t.title, t.verdict_reason ?? ""]));
  assert.match(by.Escape ?? "", /outside the task's workspace/);
  const seen = by.Peek ?? "";
  const token = fs.existsSync(path.join(data, "setup.token"))
    ? fs.readFileSync(path.join(data, "setup.token"), "utf8").trim()
    : "no-token-file";
  assert.doesNotMatch(seen, /SQLite format 3/);
  assert.ok(!seen.includes(token), "the setup token stays secret");
  assert.match(seen, /^env:\s*$/m, "no database URL or runner token in its environment");
  if (process.getuid?.() === 0) {
    // A root runner runs the command as nobody: even a world-readable file in the 0700 data directory is out of reach.
    assert.ok(!seen.includes(canary), seen);
    assert.match(seen, /Permission denied/);
  }
  r.kill("SIGTERM");
});

test("a runner that dies mid-job loses its lease; another runner takes the job and decides it", async () => {
  // A directory the command can write to whoever it runs as (a root runner runs it as nobody).
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), "sb-lease-"));
  fs.chmodSync(shared, 0o777);
  const marker = path.join(shared, `lease-${Date.now()}`);
  // First run: record the shell's pid and hang; any later run finds the marker and passes.
  const cmd = `if [ -f '${marker}' ]; then exit 0; fi; mkdir -p "$(dirname '${marker}')"; echo $$ > '${marker}'; sleep 60`;
  const g = await approvedGoal(
    node("Lease task", { verifier_config: { kind: "command", cmd, timeout_sec: 2 } }),
    1,
  );
  const a = g.agents[1];
  assert.ok(a);
  const id = g.ids["Lease task"] as number;
  await a.client.callTool({ name: "claim_task", arguments: { task_id: id } });
  await a.client.callTool({ name: "complete_task", arguments: { task_id: id, summary: "Ready" } });
  const first = await startRunner({ SWITCHBOARD_RUNNER_ID: "doomed", SWITCHBOARD_RUNNER_LEASE_GRACE_S: "1" });
  const pid = await until("the first run", async () =>
    fs.existsSync(marker) ? Number(fs.readFileSync(marker, "utf8")) : undefined,
  );
  first.kill("SIGKILL");
  try {
    process.kill(-pid, "SIGKILL"); // the orphaned command's process group
  } catch {}
  await startRunner({ SWITCHBOARD_RUNNER_ID: "heir" });
  const task = await until("the heir's verdict", async () => {
    const t = (await tasksOf(g.token, g.goal.goal_id)).find((x) => x.id === id);
    return t && t.status !== "awaiting_verification" ? t : undefined;
  });
  assert.equal(task.status, "done", task.verdict_reason ?? "");
  const row = await db.read(({ db: d }) => d.goalTask.findUnique({ where: { id } }));
  assert.match(row?.verifiedBy ?? "", /^runner:\d+:heir$/); // runner:<token id>:<instance>
});

test("GET /api/goals and /api/goals/:id: the contract's shapes, an owner sees only their goals", async () => {
  const g = await approvedGoal(
    node("Shape root", { children: [node("Shape child")] }),
    0,
    "shapes@example.com",
  );
  const list = await rest(g.token, "GET", "/api/goals");
  assert.equal(list.status, 200);
  const rows = list.json as unknown as Json[];
  assert.equal(rows.length, 1);
  assert.deepEqual(Object.keys(rows[0] ?? {}).sort(), [
    "channel_id",
    "cost_totals",
    "id",
    "last_activity_at",
    "owner_user_id",
    "slug",
    "status",
    "task_count",
    "title",
  ]);
  assert.equal(rows[0]?.task_count, 2);
  const snap = await rest(g.token, "GET", `/api/goals/${g.goal.goal_id}`);
  assert.deepEqual(Object.keys(snap.json).sort(), [
    "cost_breakdown",
    "goal",
    "recent_events",
    "spawned_agents",
    "tasks_tree",
  ]);
  const other = await server.ownerToken("someone-else@example.com");
  assert.equal((await rest(other, "GET", `/api/goals/${g.goal.goal_id}`)).status, 404);
  assert.ok(
    !((await rest(other, "GET", "/api/goals")).json as unknown as Json[]).some(
      (r) => r.id === g.goal.goal_id,
    ),
  );
});
