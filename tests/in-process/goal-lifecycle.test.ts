// Goal lifecycle (issue 13, docs/goals.md "Goal states"): a goal whose only open tasks are failed is `stuck`
// (event, goal-channel post, coordinator told) and moves on when the owner writes off the failed tasks or
// approves new work; the owner cancels a goal over REST: tasks cancelled, agents get terminate sentinels,
// pending proposals, questions and resource requests closed with a reason their askers receive.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { ask } from "../helpers/questions";

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
  const json = (await r.json()) as Json & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}

type Inbox = { messages: { kind: string; content: string }[]; ack: number };
async function inbox(c: Client): Promise<Inbox["messages"]> {
  const r = sc<Inbox>(await c.callTool({ name: "read_inbox", arguments: {} }));
  await c.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
  return r.messages;
}

const goalStatus = async (id: number) =>
  (await db.read(({ db: d }) => d.goal.findUniqueOrThrow({ where: { id } }))).status;
const eventNames = async (goalId: number) =>
  (await db.read(({ db: d }) => d.event.findMany({ where: { goalId }, orderBy: { seq: "asc" } }))).map(
    (e) => e.name,
  );
const channelPosts = async (goalId: number) =>
  (
    await db.read(({ db: d }) =>
      d.message.findMany({ where: { goalId, channelId: { not: null } }, orderBy: { id: "asc" } }),
    )
  ).map((m) => m.content);

async function approveTree(token: string, coordinator: Client, goalId: number, tree: Json) {
  const p = await coordinator.callTool({ name: "propose_task_tree", arguments: { goal_id: goalId, tree } });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const ok = await rest(token, "POST", `/api/approvals/${id}/approve`, {});
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  return (ok.json.task_ids as number[]) ?? [];
}

test("stuck: only a failed task left open → stuck (event, post, coordinator told); a new tree unsticks; writing off the failed task completes it", async () => {
  const g = await goalWithAgents(h, 2);
  const [c, a, b] = g.agents;
  assert.ok(c && a && b);
  const gid = g.goal.goal_id;
  await approveTree(g.token, c.client, gid, {
    title: "Ship the docs",
    description: "Ship the whole docs set.",
    children: [
      {
        title: "Write the API page",
        description: "Write the API reference page.",
        verifier_config: { kind: "peer", agent_id: Number(b.id) },
      },
    ],
  });
  const tasks = await db.read(({ db: d }) =>
    d.goalTask.findMany({ where: { goalId: gid }, orderBy: { id: "asc" } }),
  );
  const [root, child] = tasks;
  assert.ok(root && child);
  const work = async (id: number, who = a) => {
    const claim = await who.client.callTool({ name: "claim_task", arguments: { task_id: id } });
    assert.equal(errorCode(claim), undefined, JSON.stringify(claim));
    const done = await who.client.callTool({
      name: "complete_task",
      arguments: { task_id: id, summary: "Done." },
    });
    assert.equal(errorCode(done), undefined, JSON.stringify(done));
  };
  await work(child.id);
  const rejected = await b.client.callTool({
    name: "verify_task",
    arguments: { task_id: child.id, verdict: "reject", reason: "Examples are missing." },
  });
  assert.equal(errorCode(rejected), undefined, JSON.stringify(rejected));
  assert.equal(await goalStatus(gid), "active", "the root is still workable");
  await work(root.id, b); // auto verifier: done at once (b: a's −1 then +1 would quarantine a)
  assert.equal(await goalStatus(gid), "stuck");
  assert.ok((await eventNames(gid)).includes("goal_stuck"));
  assert.ok((await channelPosts(gid)).some((p) => p.startsWith("The goal is stuck")));
  assert.ok((await inbox(c.client)).some((m) => m.content.startsWith("The goal is stuck")));
  // The snapshot and the list say so.
  assert.equal(((await rest(g.token, "GET", `/api/goals/${gid}`)).json.goal as Json).status, "stuck");

  // A new tree gives it work again: active; its task done → stuck again (the failed task is still open).
  const [extra] = await approveTree(g.token, c.client, gid, {
    title: "Add the examples",
    description: "Add the missing examples.",
  });
  assert.equal(await goalStatus(gid), "active");
  assert.ok((await eventNames(gid)).includes("goal_unstuck"));
  await work(Number(extra), b);
  assert.equal(await goalStatus(gid), "stuck");
  // The owner writes off the failed task: nothing open remains → completed.
  const off = await rest(g.token, "POST", `/api/goals/${gid}/tasks/${child.id}/cancel`, {});
  assert.equal(off.status, 200, JSON.stringify(off.json));
  assert.equal(await goalStatus(gid), "completed");
  assert.equal((await eventNames(gid)).at(-1), "goal_completed");
});

test("cancel: tasks cancelled, every agent gets a sentinel, proposals/questions/requests closed with the reason; twice is goal_finished; another owner's is not_found", async () => {
  const g = await goalWithAgents(h, 2);
  const [c, a, b] = g.agents;
  assert.ok(c && a && b);
  const gid = g.goal.goal_id;
  const [taskId] = await approveTree(g.token, c.client, gid, {
    title: "Index the docs",
    description: "Build the search index.",
    children: [{ title: "Crawl the pages", description: "Crawl every docs page." }],
  });
  assert.equal(
    errorCode(await a.client.callTool({ name: "claim_task", arguments: { task_id: Number(taskId) } })),
    undefined,
  );
  // A pending proposal, a blocked question and an open resource request.
  const pending = await c.client.callTool({
    name: "propose_task_tree",
    arguments: { goal_id: gid, tree: { title: "More work", description: "Something more to do." } },
  });
  assert.equal(errorCode(pending), undefined);
  const question = ask(b.client, {
    questions: [{ question: "Which index engine?", header: "Engine", multiSelect: false, options: [] }],
  });
  const req = await a.client.callTool({
    name: "request_resource",
    arguments: {
      name: "SEARCH_KEY",
      resource_type: "api_key",
      reason: "The index needs it.",
      task_id: Number(taskId),
    },
  });
  assert.equal(errorCode(req), undefined, JSON.stringify(req));
  // The question reached the coordinator (b's leader) before the cancel.
  for (let i = 0; i < 50; i++) {
    const n = await db.read(({ db: d }) => d.question.count({ where: { goalId: gid, status: "pending" } }));
    if (n > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  const stranger = await h.ownerToken("other-canceller@example.com");
  assert.equal((await rest(stranger, "POST", `/api/goals/${gid}/cancel`, {})).code, "not_found");
  assert.equal(
    (await rest(g.token, "POST", `/api/goals/${gid}/cancel`, { reason: "x".repeat(2001) })).code,
    "invalid_input",
  );
  assert.equal(await goalStatus(gid), "active", "nothing written by refused cancels");

  const r = await rest(g.token, "POST", `/api/goals/${gid}/cancel`, { reason: "Priorities changed" });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.deepEqual(r.json, {
    goal_id: gid,
    status: "cancelled",
    tasks_cancelled: 2,
    agents_terminated: 3,
    proposals_closed: 1,
    questions_closed: 1,
    requests_closed: 1,
  });
  // The blocked ask_user returns user_declined with the reason.
  const answer = await question;
  assert.equal(errorCode(answer), "user_declined");
  assert.match(JSON.stringify(answer), /Priorities changed/);
  const tasks = await db.read(({ db: d }) => d.goalTask.findMany({ where: { goalId: gid } }));
  assert.deepEqual(
    tasks.map((t) => t.status),
    ["cancelled", "cancelled"],
  );
  const agents = await db.read(({ db: d }) => d.agent.findMany({ where: { goalId: gid } }));
  assert.ok(agents.every((x) => x.terminatePostedAt !== null));
  // The agents of a cancelled goal are told (their inboxes, for the runner or a later audit), and their keys
  // no longer act (issue 16: agent_retired, reason goal_cancelled).
  const pendingOf = (agentId: string) =>
    db.read(({ db: d }) =>
      d.message.findMany({
        where: { recipientAgentId: Number(agentId) },
        select: { kind: true, content: true },
      }),
    );
  const cInbox = await pendingOf(c.id);
  assert.ok(cInbox.some((m) => m.kind === "proposal_rejected" && /Priorities changed/.test(m.content)));
  assert.ok(cInbox.some((m) => m.kind === "terminate"));
  assert.ok(
    (await pendingOf(a.id)).some(
      (m) => m.kind === "resource_declined" && /Priorities changed/.test(m.content),
    ),
  );
  await assert.rejects(inbox(a.client), { code: "agent_retired", details: { reason: "goal_cancelled" } });
  assert.ok((await eventNames(gid)).includes("goal_cancelled"));
  assert.ok(
    (await channelPosts(gid)).some((p) => p.startsWith("The owner cancelled this goal: Priorities changed")),
  );
  const again = await rest(g.token, "POST", `/api/goals/${gid}/cancel`, {});
  assert.deepEqual([again.status, again.code], [409, "goal_finished"]);
});

test("two cancels at once: one wins, the other is goal_finished; pausing a stuck goal and resuming it answers `stuck`", async () => {
  const g = await goalWithAgents(h, 0);
  const results = await Promise.all([
    rest(g.token, "POST", `/api/goals/${g.goal.goal_id}/cancel`, {}),
    rest(g.token, "POST", `/api/goals/${g.goal.goal_id}/cancel`, {}),
  ]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
  assert.equal(results.find((r) => r.status === 409)?.code, "goal_finished");
  const cancelled = await db.read(({ db: d }) =>
    d.event.count({ where: { goalId: g.goal.goal_id, name: "goal_cancelled" } }),
  );
  assert.equal(cancelled, 1);

  // A stuck goal (its one task failed) paused by hand and resumed: resume_goal answers the state it resumed into.
  const s = await goalWithAgents(h, 2);
  const [c, a, b] = s.agents;
  assert.ok(c && a && b);
  const [taskId] = await approveTree(s.token, c.client, s.goal.goal_id, {
    title: "Only task",
    description: "The only task of the goal.",
    verifier_config: { kind: "peer", agent_id: Number(b.id) },
  });
  await a.client.callTool({ name: "claim_task", arguments: { task_id: Number(taskId) } });
  await a.client.callTool({
    name: "complete_task",
    arguments: { task_id: Number(taskId), summary: "Done." },
  });
  await b.client.callTool({
    name: "verify_task",
    arguments: { task_id: Number(taskId), verdict: "reject", reason: "No." },
  });
  assert.equal(await goalStatus(s.goal.goal_id), "stuck");
  assert.equal((await rest(s.token, "POST", `/api/goals/${s.goal.goal_id}/pause`, {})).status, 200);
  assert.equal(await goalStatus(s.goal.goal_id), "paused");
  const resumed = await s.owner.callTool({ name: "resume_goal", arguments: { goal_id: s.goal.goal_id } });
  assert.deepEqual(sc(resumed), { goal_id: s.goal.goal_id, status: "stuck" });
  assert.equal(await goalStatus(s.goal.goal_id), "stuck");
});

test("complete_task racing the owner's cancel: whichever wins, a cancel that answered 200 leaves the task cancelled, never revived", async () => {
  const g = await goalWithAgents(h, 1);
  const [c, a] = g.agents;
  assert.ok(c && a);
  const gid = g.goal.goal_id;
  const children = Array.from({ length: 8 }, (_, i) => ({
    title: `Race ${i}`,
    description: `Task number ${i} of the race.`,
    verifier_config: { kind: "peer", agent_id: Number(c.id) },
  }));
  await approveTree(g.token, c.client, gid, { title: "Races", description: "A tree to race on.", children });
  const leaves = await db.read(({ db: d }) =>
    d.goalTask.findMany({ where: { goalId: gid, parentId: { not: null } }, orderBy: { id: "asc" } }),
  );
  assert.equal(leaves.length, 8);
  for (const t of leaves) {
    const claimed = await a.client.callTool({ name: "claim_task", arguments: { task_id: t.id } });
    assert.equal(errorCode(claimed), undefined, JSON.stringify(claimed));
    const [done, cancel]: [unknown, Awaited<ReturnType<typeof rest>>] = await Promise.all([
      a.client.callTool({ name: "complete_task", arguments: { task_id: t.id, summary: "Done, see notes." } }),
      rest(g.token, "POST", `/api/goals/${gid}/tasks/${t.id}/cancel`, {}),
    ]);
    const final = (await db.read(({ db: d }) => d.goalTask.findUniqueOrThrow({ where: { id: t.id } })))
      .status;
    assert.notEqual(errorCode(done), "internal_error");
    assert.ok(cancel.status < 500, JSON.stringify(cancel.json));
    if (cancel.status === 200) assert.equal(final, "cancelled", `task ${t.id}: cancel answered 200`);
    else assert.equal(cancel.code, "ErrTaskTerminal");
    if (errorCode(done) === undefined && cancel.status !== 200) assert.equal(final, "awaiting_verification");
  }
});

test("ErrTaskNotInProgress for a task already completed; ErrGoalNotOpen when a goal closes between authentication and the proposal", async () => {
  const g = await goalWithAgents(h, 2);
  const [c, a, b] = g.agents;
  assert.ok(c && a && b);
  const gid = g.goal.goal_id;
  await approveTree(g.token, c.client, gid, {
    title: "Review root",
    description: "A tree with one peer-verified task.",
    children: [
      {
        title: "Peer task",
        description: "A task checked by a peer.",
        verifier_config: { kind: "peer", agent_id: Number(b.id) },
      },
    ],
  });
  const task = await db.read(({ db: d }) =>
    d.goalTask.findFirstOrThrow({ where: { goalId: gid, parentId: { not: null } } }),
  );
  await a.client.callTool({ name: "claim_task", arguments: { task_id: task.id } });
  const first = await a.client.callTool({
    name: "complete_task",
    arguments: { task_id: task.id, summary: "Finished it." },
  });
  assert.equal(sc<{ status: string }>(first).status, "awaiting_verification");
  const again = await a.client.callTool({
    name: "complete_task",
    arguments: { task_id: task.id, summary: "Again." },
  });
  assert.equal(errorCode(again), "ErrTaskNotInProgress");
  // Authentication refuses a finished goal's agents (agent_retired); the tool's own rule still holds for a
  // goal that closes after the call was authenticated: the domain operation, called as /mcp would.
  await db.write(({ db: d }) => d.goal.update({ where: { id: gid }, data: { status: "cancelled" } }));
  const { proposeTaskTree } = await import("@/lib/domain/proposals/propose-task-tree");
  await assert.rejects(
    proposeTaskTree(
      { agentId: Number(c.id), goalId: gid },
      { goal_id: gid, tree: { title: "Late work", description: "Too late for this goal." } },
    ),
    { code: "ErrGoalNotOpen" },
  );
});
