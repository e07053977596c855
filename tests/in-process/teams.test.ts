// Agent teams over real MCP clients: every error code of declare_plan, remove_plan, spawn_agent,
// list_ready, signal_review, request_termination, terminate_child, list_pending_reviews, create_team and
// update_plan_task; the review gate; the termination cascade; the spawn and create_team locks; events.
// In process (tests/helpers/in-process.ts); the spawn lock across two server processes is in
// tests/integration/teams.test.ts.
import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, test } from "node:test";
import { errorCode, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { agentClient, call, drain, events, eventually, goalWithCoordinator, task } from "../helpers/teams";

let server: InProcess;
let db: typeof import("@/lib/db") | undefined;
before(async () => {
  server = await startInProcess({ env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_SPAWN_HOLD_MS: "150" } });
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

type ErrResult = {
  isError?: boolean;
  structuredContent?: { error: { code: string; details: Record<string, unknown> } };
  content: { text: string }[];
};
const details = (r: unknown) => (r as ErrResult).structuredContent?.error.details ?? {};
const text = (r: unknown) => (r as ErrResult).content[0]?.text ?? "";

test("tools/list advertises every team tool", async () => {
  const { coordinator } = await goalWithCoordinator(server);
  const names = (await coordinator.client.listTools()).tools.map((t) => t.name);
  for (const n of [
    "list_peers",
    "create_team",
    "declare_plan",
    "remove_plan",
    "spawn_agent",
    "list_ready",
    "signal_review",
    "request_termination",
    "terminate_child",
    "list_pending_reviews",
    "update_plan_task",
  ]) {
    assert.ok(names.includes(n), n);
  }
});

test("declare_plan: every validation error, nothing saved; then a plan with readiness and its file", async () => {
  const { coordinator: c } = await goalWithCoordinator(server);
  const declare = (tasks: unknown[]) => c.client.callTool({ name: "declare_plan", arguments: { tasks } });
  assert.equal(errorCode(await declare([])), "empty_plan");
  assert.equal(errorCode(await declare([task("a"), task("a")])), "duplicate_task_id");
  assert.equal(errorCode(await declare([task("a", ["a"])])), "self_dep");
  const unknown = await declare([task("a", ["zz"])]);
  assert.equal(errorCode(unknown), "unknown_dep");
  assert.deepEqual(details(unknown).unknown_deps, ["zz"]);
  const cyc = await declare([task("a", ["c"]), task("b", ["a"]), task("c", ["b"]), task("d")]);
  assert.equal(errorCode(cyc), "cycle_detected");
  const chain = details(cyc).cycle as string[];
  assert.equal(chain[0], chain.at(-1));
  assert.deepEqual(new Set(chain), new Set(["a", "b", "c"]));
  const badSkill = await declare([task("a", [], "no-such-skill")]);
  assert.equal(errorCode(badSkill), "unknown_skill");
  assert.deepEqual(details(badSkill).skills, ["no-such-skill"]);
  assert.equal(errorCode(await c.client.callTool({ name: "list_ready", arguments: {} })), "no_active_plan");

  const plan = await call<{
    plan_id: string;
    plan_path: string;
    tasks: { id: string; status: string; depends_on: string[] }[];
  }>(c, "declare_plan", { tasks: [task("a"), task("b", ["a"]), task("c")] });
  assert.match(plan.plan_id, /^plan_/);
  assert.deepEqual(
    plan.tasks.map((t) => [t.id, t.status, t.depends_on]),
    [
      ["a", "ready", []],
      ["b", "blocked", ["a"]],
      ["c", "ready", []],
    ],
  );
  const file = JSON.parse(fs.readFileSync(plan.plan_path, "utf8")) as { plan_id: string; tasks: unknown[] };
  assert.equal(file.plan_id, plan.plan_id);
  assert.equal(file.tasks.length, 3);
  assert.deepEqual(await call(c, "list_ready"), { ready: ["a", "c"] });
  assert.equal(errorCode(await declare([task("x")])), "plan_already_declared");

  const removed = await call<{ removed_plan_id: string }>(c, "remove_plan");
  assert.equal(removed.removed_plan_id, plan.plan_id);
  assert.ok(!fs.existsSync(plan.plan_path));
  assert.ok(fs.existsSync(plan.plan_path.replace(/\.json$/, ".removed.json")));
  assert.equal(errorCode(await c.client.callTool({ name: "remove_plan", arguments: {} })), "no_active_plan");
  // Replanning works after removal.
  assert.equal(errorCode(await declare([task("x")])), undefined);
});

test("spawn_agent: errors, team on first spawn, the assignment message, a usable operator key", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  const spawn = (task_id: string) => c.client.callTool({ name: "spawn_agent", arguments: { task_id } });
  assert.equal(errorCode(await spawn("a")), "no_active_plan");
  await call(c, "declare_plan", { tasks: [task("a"), task("b", ["a"]), task("c")] });
  assert.equal(errorCode(await spawn("nope")), "unknown_task");
  const blocked = await spawn("b");
  assert.equal(errorCode(blocked), "task_not_ready");
  assert.deepEqual(details(blocked).unmet_deps, ["a"]);

  const first = sc<{
    agent_id: string;
    team_id: string;
    task_id: string;
    remaining_ready: string[];
    team_created: boolean;
  }>(await spawn("a"));
  assert.equal(first.team_created, true);
  assert.equal(first.task_id, "a");
  assert.deepEqual(first.remaining_ready, ["c"]);
  assert.match(first.team_id, /^team_/);
  const again = await spawn("a");
  assert.equal(errorCode(again), "task_not_pending");
  assert.equal(details(again).status, "in_flight");
  const second = sc<{ team_id: string; team_created: boolean; remaining_ready: string[] }>(await spawn("c"));
  assert.equal(second.team_created, false);
  assert.equal(second.team_id, first.team_id);
  assert.deepEqual(second.remaining_ready, []);

  const child = await agentClient(server, first.agent_id);
  const [msg] = await drain(child);
  assert.equal(msg?.kind, "task_assignment");
  assert.match(
    msg?.content ?? "",
    /^\[TASK ASSIGNMENT\]\nplan_task_id: a\nartifacts_path: (\S+)\n\[\/TASK ASSIGNMENT\]\n\nDo task a\.$/,
  );
  const artifacts = /artifacts_path: (\S+)/.exec(msg?.content ?? "")?.[1] ?? "";
  assert.ok(fs.statSync(artifacts).isDirectory());
  const who = await call<{ agent_id: string }>(child, "whoami");
  assert.equal(who.agent_id, first.agent_id);

  const peers = await call<{
    peers: { agent_id: string; team_id: string; is_leader_of: string[]; role: string; name: string }[];
  }>(c, "list_peers", { scope: "children" });
  assert.deepEqual(
    peers.peers.map((p) => p.agent_id).sort(),
    [first.agent_id, (second as { agent_id?: string }).agent_id].sort(),
  );
  const all = await call<{ peers: { agent_id: string; is_leader_of: string[] }[] }>(c, "list_peers", {
    scope: "all",
  });
  assert.deepEqual(all.peers.find((p) => p.agent_id === c.id)?.is_leader_of, [first.team_id]);
  const mates = await call<{ peers: { agent_id: string; team_id: string }[] }>(child, "list_peers");
  assert.deepEqual(
    mates.peers.map((p) => p.team_id),
    [first.team_id],
  );

  const inUse = await c.client.callTool({ name: "remove_plan", arguments: {} });
  assert.equal(errorCode(inUse), "plan_in_use");
  assert.deepEqual(
    (details(inUse).in_flight as { task_id: string; agent_id: string }[]).map((t) => t.task_id).sort(),
    ["a", "c"],
  );

  const log = await events(server, token, goal.goal_id);
  const names = log.map((e) => e.event);
  const teamAt = names.indexOf("team_created");
  assert.ok(teamAt >= 0 && teamAt < names.indexOf("agent_spawned"));
  for (const n of ["plan_declared", "task_ready", "task_spawned"]) assert.ok(names.includes(n), n);
});

test("depth_exceeded from spawn_agent and create_team; depth_warning past depth 6", async () => {
  const shallow = await goalWithCoordinator(server, 1);
  await call(shallow.coordinator, "declare_plan", { tasks: [task("a")] });
  const s = await call<{ agent_id: string }>(shallow.coordinator, "spawn_agent", { task_id: "a" });
  const child = await agentClient(server, s.agent_id);
  await call(child, "declare_plan", { tasks: [task("deeper")] });
  const r = await child.client.callTool({ name: "spawn_agent", arguments: { task_id: "deeper" } });
  assert.equal(errorCode(r), "depth_exceeded");
  assert.deepEqual(details(r), { depth: 2, max_spawn_depth: 1 });
  assert.deepEqual(await call(child, "list_ready"), { ready: ["deeper"] }, "the plan stays declared");
  const ct = await child.client.callTool({
    name: "create_team",
    arguments: { name: "t", task: "x", roles: [{ role: "r", skill: "engineer", description: "d" }] },
  });
  assert.equal(errorCode(ct), "depth_exceeded");

  const deep = await goalWithCoordinator(server, 8);
  let leader = deep.coordinator;
  for (let depth = 1; depth <= 7; depth++) {
    await call(leader, "declare_plan", { tasks: [task(`d${depth}`)] });
    const sp = await call<{ agent_id: string }>(leader, "spawn_agent", { task_id: `d${depth}` });
    leader = await agentClient(server, sp.agent_id);
  }
  const warnings = (await events(server, deep.token, deep.goal.goal_id)).filter(
    (e) => e.event === "depth_warning",
  );
  assert.deepEqual(
    warnings.map((w) => w.data.depth),
    [7],
  );
});

test("unknown_skill at spawn when the skill was deleted after declare_plan", async () => {
  const { coordinator: c, token } = await goalWithCoordinator(server);
  const name = `temp-skill-${Date.now()}`;
  const created = await server.fetch(`/api/skills`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      name,
      description: "temporary",
      system_prompt: "You are temporary. {role_description}",
    }),
  });
  assert.equal(created.status, 201);
  await call(c, "declare_plan", { tasks: [task("a", [], name)] });
  const del = await server.fetch(`/api/skills/${name}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(del.status, 204);
  assert.equal(
    errorCode(await c.client.callTool({ name: "spawn_agent", arguments: { task_id: "a" } })),
    "unknown_skill",
  );
  assert.deepEqual(await call(c, "list_ready"), { ready: ["a"] });
});

test("signal_review envelope errors, the review report, the review gate, acknowledgement", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a"), task("b")] });
  const a = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id,
  );
  for (const detail of [null, "", "   "]) {
    const r = await a.client.callTool({ name: "signal_review", arguments: { detail } });
    assert.equal(errorCode(r), "envelope_missing");
    assert.equal(details(r).reason, "detail_empty");
  }
  const missing = await a.client.callTool({ name: "signal_review", arguments: {} });
  assert.equal(details(missing).reason, "detail_empty");
  const noMarker = await a.client.callTool({ name: "signal_review", arguments: { detail: "all done" } });
  assert.equal(errorCode(noMarker), "envelope_missing");
  assert.equal(details(noMarker).reason, "envelope_missing");
  assert.deepEqual(await call(c, "list_pending_reviews"), { reviews: [] }, "rejected calls change nothing");

  assert.deepEqual(await call(a, "signal_review", { detail: "[review required] wrote a.txt" }), {
    recorded: true,
    review_pending: true,
  });
  const report = (await drain(c)).find((m) => m.kind === "review_report");
  assert.ok(report, "review_report in the leader's inbox");
  assert.equal(report.from, a.id);
  assert.match(report.content, /wrote a\.txt/);

  // The gate: everything but the allow-list is denied, naming the child.
  const denied = await c.client.callTool({ name: "list_ready", arguments: {} });
  assert.equal(errorCode(denied), "review_gate_closed");
  assert.deepEqual(
    (details(denied).waiting as { agent_id: string }[]).map((w) => w.agent_id),
    [a.id],
  );
  assert.match(text(denied), new RegExp(`agent ${a.id}`));
  assert.equal(
    errorCode(await c.client.callTool({ name: "spawn_agent", arguments: { task_id: "b" } })),
    "review_gate_closed",
  );
  const pending = await c.client.callTool({ name: "list_pending_reviews", arguments: {} });
  const reviews = sc<{
    reviews: { agent_id: string; summary: string; age_s: number; review_pending_ts: number }[];
  }>(pending).reviews;
  assert.equal(reviews.length, 1);
  assert.equal(reviews[0]?.summary, "[review required] wrote a.txt");
  assert.ok((reviews[0]?.age_s ?? -1) >= 0);
  assert.deepEqual(JSON.parse(text(pending)), reviews, "the text is the contract's bare list");
  assert.equal(errorCode(await c.client.callTool({ name: "read_inbox", arguments: {} })), undefined);

  // Re-entrant: a second signal supersedes the first.
  await new Promise((r) => setTimeout(r, 50));
  await call(a, "signal_review", { detail: "[ITERATION READY] second" });
  const again = (
    await call<{ reviews: { summary: string; review_pending_ts: number }[] }>(c, "list_pending_reviews")
  ).reviews;
  assert.equal(again.length, 1);
  assert.equal(again[0]?.summary, "[ITERATION READY] second");
  assert.ok((again[0]?.review_pending_ts ?? 0) > (reviews[0]?.review_pending_ts ?? 0));

  // Rework: the leader's message clears the review and opens the gate.
  await call(c, "send_message", { to: a.id, content: "rework: add tests" });
  assert.deepEqual(await call(c, "list_pending_reviews"), { reviews: [] });
  assert.deepEqual(await call(c, "list_ready"), { ready: ["b"] });
  const log = await events(server, token, goal.goal_id);
  assert.ok(log.some((e) => e.event === "review_gate.denied" && e.data.tool === "list_ready"));
  assert.ok(log.some((e) => e.event === "review.acknowledged" && String(e.agent_id) === a.id));
  assert.ok(log.some((e) => e.event === "status" && e.data.state === "review_pending"));
});

test("terminate_child: errors, approval marks the task done and unlocks the next, the sentinel closes the inbox", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a"), task("b", ["a"]), task("c")] });
  const a = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id,
  );
  const cc = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "c" })).agent_id,
  );
  const term = (who: typeof c, agent_id: string, force?: boolean) =>
    who.client.callTool({
      name: "terminate_child",
      arguments: force === undefined ? { agent_id } : { agent_id, force },
    });
  assert.equal(errorCode(await term(c, "999999")), "unknown_agent");
  assert.equal(errorCode(await term(c, "abc")), "unknown_agent");
  assert.equal(errorCode(await term(a, cc.id)), "not_leader");
  assert.equal(errorCode(await term(a, c.id)), "not_leader");
  assert.equal(errorCode(await term(c, a.id)), "child_not_pending_review");

  await call(a, "signal_review", { detail: "[REVIEW REQUIRED] done" });
  assert.deepEqual(sc(await term(c, a.id)), { sentinel_posted: true });
  assert.equal(errorCode(await term(c, a.id)), "already_terminating");
  assert.deepEqual(await call(c, "list_ready"), { ready: ["b"] });
  const statusOf = async (id: string) =>
    (
      await call<{ peers: { agent_id: string; status: string }[] }>(c, "list_peers", { scope: "children" })
    ).peers.find((p) => p.agent_id === id)?.status;
  assert.equal(await statusOf(a.id), "terminating");
  // Messages still reach it until it reads the sentinel.
  assert.equal(
    errorCode(await c.client.callTool({ name: "send_message", arguments: { to: a.id, content: "bye" } })),
    undefined,
  );
  const inbox = await drain(a);
  assert.ok(inbox.some((m) => m.kind === "terminate"));
  const closed = await c.client.callTool({
    name: "send_message",
    arguments: { to: a.id, content: "hello?" },
  });
  assert.equal(errorCode(closed), "recipient_terminated");
  assert.equal(errorCode(await term(c, a.id)), "already_terminating");

  // force: no review needed, the task fails.
  assert.deepEqual(sc(await term(c, cc.id, true)), { sentinel_posted: true });
  const log = await events(server, token, goal.goal_id);
  const forced = log.find((e) => e.event === "terminate.forced");
  assert.equal(String(forced?.agent_id), cc.id);
  assert.equal(forced?.data.reason, "leader_force");
  assert.ok(log.some((e) => e.event === "task_done" && e.data.task_id === "a"));
  assert.ok(log.some((e) => e.event === "task_failed" && e.data.task_id === "c"));
  assert.ok(log.some((e) => e.event === "task_ready" && e.data.task_id === "b"));
  assert.ok(log.some((e) => e.event === "agent_completed" && String(e.agent_id) === a.id));
  assert.equal(await statusOf(a.id), "terminated");
  // The plan file follows the statuses.
  const planPath = (log.find((e) => e.event === "plan_declared")?.data.plan_path as string) ?? "";
  const file = JSON.parse(fs.readFileSync(planPath, "utf8")) as { tasks: { id: string; status: string }[] };
  assert.deepEqual(
    file.tasks.map((t) => [t.id, t.status]),
    [
      ["a", "done"],
      ["b", "ready"],
      ["c", "failed"],
    ],
  );
});

test("request_termination: plan_incomplete until every task is done or failed; approval by terminate_child", async () => {
  const { coordinator: c } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("lead")] });
  const l = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "lead" })).agent_id,
  );
  await call(l, "declare_plan", { tasks: [task("x"), task("y", ["x"])] });
  const r = await l.client.callTool({ name: "request_termination", arguments: { detail: "done?" } });
  assert.equal(errorCode(r), "plan_incomplete");
  assert.deepEqual(
    (details(r).unfinished as { task_id: string }[]).map((t) => t.task_id),
    ["x", "y"],
  );
  // update_plan_task: errors and use.
  const upd = (task_id: string, status: string) =>
    l.client.callTool({ name: "update_plan_task", arguments: { task_id, status } });
  assert.equal(errorCode(await upd("nope", "done")), "unknown_task");
  assert.deepEqual(sc(await upd("x", "done")), { task_id: "x", status: "done", ready: ["y"] });
  assert.equal(errorCode(await upd("x", "failed")), "task_not_pending");
  await call(l, "spawn_agent", { task_id: "y" });
  assert.equal(errorCode(await upd("y", "done")), "task_in_flight");
  const y = (await call<{ peers: { agent_id: string }[] }>(l, "list_peers", { scope: "children" })).peers[0];
  assert.ok(y);
  await call(l, "terminate_child", { agent_id: y.agent_id, force: true });
  assert.deepEqual(await call(l, "request_termination", { detail: "all finished" }), {
    recorded: true,
    termination_requested: true,
  });
  const note = (await drain(c)).find((m) => m.kind === "termination_request");
  assert.match(note?.content ?? "", /all finished/);
  // A rework message rejects the request; a new request and terminate_child end it.
  await call(c, "send_message", { to: l.id, content: "not yet" });
  assert.equal(
    errorCode(await c.client.callTool({ name: "terminate_child", arguments: { agent_id: l.id } })),
    "child_not_pending_review",
  );
  await call(l, "request_termination", {});
  assert.deepEqual(await call(c, "terminate_child", { agent_id: l.id }), { sentinel_posted: true });
});

test("the terminate sentinel cascades depth-first through every team the child leads", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server, 4);
  await call(c, "declare_plan", { tasks: [task("top")] });
  const top = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "top" })).agent_id,
  );
  await call(top, "declare_plan", { tasks: [task("m1"), task("m2")] });
  const m1 = await agentClient(
    server,
    (await call<{ agent_id: string }>(top, "spawn_agent", { task_id: "m1" })).agent_id,
  );
  const m2 = (await call<{ agent_id: string }>(top, "spawn_agent", { task_id: "m2" })).agent_id;
  await call(m1, "declare_plan", { tasks: [task("leaf")] });
  const leaf = (await call<{ agent_id: string }>(m1, "spawn_agent", { task_id: "leaf" })).agent_id;
  await call(c, "terminate_child", { agent_id: top.id, force: true });
  const posted = (await events(server, token, goal.goal_id))
    .filter((e) => e.event === "status" && e.data.state === "terminate_posted")
    .map((e) => String(e.agent_id));
  assert.deepEqual(posted, [leaf, m1.id, m2, top.id]);
  for (const id of [leaf, m1.id, m2, top.id]) {
    const msgs = await drain(await agentClient(server, id));
    assert.ok(
      msgs.some((m) => m.kind === "terminate"),
      `sentinel for ${id}`,
    );
  }
  const peers = await call<{ peers: { agent_id: string; status: string }[] }>(c, "list_peers", {
    scope: "all",
  });
  for (const id of [leaf, m1.id, m2, top.id])
    assert.equal(peers.peers.find((p) => p.agent_id === id)?.status, "terminated");
});

test("list_pending_reviews: direct children only, oldest first", async () => {
  const { coordinator: c } = await goalWithCoordinator(server, 4);
  await call(c, "declare_plan", { tasks: [task("p"), task("q")] });
  const p = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "p" })).agent_id,
  );
  const q = await agentClient(
    server,
    (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "q" })).agent_id,
  );
  await call(p, "declare_plan", { tasks: [task("g")] });
  const g = await agentClient(
    server,
    (await call<{ agent_id: string }>(p, "spawn_agent", { task_id: "g" })).agent_id,
  );
  await call(q, "signal_review", { detail: "[REVIEW REQUIRED] q first" });
  await new Promise((r) => setTimeout(r, 30));
  await call(g, "signal_review", { detail: "[REVIEW REQUIRED] grandchild" });
  await call(p, "signal_review", { detail: "[REVIEW REQUIRED] p second" });
  const reviews = (
    await call<{ reviews: { agent_id: string; role: string; name: string }[] }>(c, "list_pending_reviews")
  ).reviews;
  assert.deepEqual(
    reviews.map((r) => r.agent_id),
    [q.id, p.id],
  );
  assert.equal(reviews[0]?.role, "engineer");
  assert.match(reviews[0]?.name ?? "", /^q-engineer-[0-9a-f]{4}$/);
});

test("create_team (deprecated): every error, a team with members, consensus", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  const ct = (args: Record<string, unknown>) => c.client.callTool({ name: "create_team", arguments: args });
  const roles = [
    { role: "frontend", skill: "engineer", description: "the UI" },
    { role: "backend", skill: "engineer", description: "the API" },
  ];
  assert.equal(
    errorCode(await ct({ name: "t", task: "x", roles, leader_id: "1" })),
    "leader_override_attempted",
  );
  const same = [roles[0], roles[0]];
  assert.equal(errorCode(await ct({ name: "t", task: "x", roles: same })), "duplicate_member_descriptions");
  assert.equal(
    errorCode(await ct({ name: "t", task: "x", roles: [{ role: "r", skill: "nope", description: "d" }] })),
    "unknown_skill",
  );
  const team = sc<{ team_id: string; members: { agent_id: string; role: string }[] }>(
    await ct({ name: "web", task: "build the site", roles, rules: ["be kind"] }),
  );
  assert.match(team.team_id, /^team_/);
  assert.deepEqual(
    team.members.map((m) => m.role),
    ["frontend", "backend"],
  );
  const member = await agentClient(server, team.members[0]?.agent_id ?? "");
  const [first] = await drain(member);
  assert.match(first?.content ?? "", /Build the thing\.[\s\S]*the UI[\s\S]*be kind/);
  const ens = sc<{ members: unknown[] }>(await ct({ name: "vote", task: "x", roles: same, consensus: true }));
  assert.equal(ens.members.length, 2);
  // Concurrent create_team calls by one agent: the lock lets one through at a time.
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      ct({ name: `c${i}`, task: "x", roles: [{ role: `r${i}`, skill: "engineer", description: "d" }] }),
    ),
  );
  const codes = results.map(errorCode);
  assert.ok(codes.includes(undefined), "at least one succeeds");
  assert.ok(codes.includes("concurrent_create_team"), `some are refused: ${codes.join(",")}`);
  assert.ok(codes.every((x) => x === undefined || x === "concurrent_create_team"));
  const created = (await events(server, token, goal.goal_id)).filter((e) => e.event === "team_created");
  assert.equal(created.length, 2 + codes.filter((x) => x === undefined).length);
});

test("the root agent's review goes to the owner", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  await call(c, "signal_review", { detail: "[REVIEW REQUIRED] the goal is done" });
  const log = await eventually(async () => {
    const l = await events(server, token, goal.goal_id);
    return l.some((e) => e.event === "review.escalated_to_user") ? l : undefined;
  });
  assert.ok(log.some((e) => e.event === "question_asked" && e.data.origin === "root_review"));
});

test("the owner's verdict on the root review (the questions feature's seam): rework, then approve", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
  const { applyOwnerVerdict } = await import("@/lib/domain/reviews/owner-verdict");
  await call(c, "signal_review", { detail: "[REVIEW REQUIRED] v1" });
  await db.write((u) =>
    applyOwnerVerdict(u, {
      goalId: goal.goal_id,
      agentId: Number(c.id),
      verdict: "rework",
      text: "more tests",
    }),
  );
  const rework = (await drain(c)).find((m) => m.from === "__user__");
  assert.equal(rework?.content, "rework: more tests");
  await call(c, "signal_review", { detail: "[REVIEW REQUIRED] v2" });
  await db.write((u) =>
    applyOwnerVerdict(u, { goalId: goal.goal_id, agentId: Number(c.id), verdict: "approve" }),
  );
  assert.ok((await drain(c)).some((m) => m.kind === "terminate"));
  const log = await events(server, token, goal.goal_id);
  assert.ok(log.some((e) => e.event === "review.acknowledged" && String(e.agent_id) === c.id));
  assert.ok(log.some((e) => e.event === "agent_completed" && String(e.agent_id) === c.id));
});

test("concurrent terminate_child calls for one child post exactly one sentinel", async () => {
  const { coordinator: c } = await goalWithCoordinator(server);
  await call(c, "declare_plan", { tasks: [task("a")] });
  const a = (await call<{ agent_id: string }>(c, "spawn_agent", { task_id: "a" })).agent_id;
  const results = await Promise.all(
    Array.from({ length: 4 }, () =>
      c.client.callTool({ name: "terminate_child", arguments: { agent_id: a, force: true } }),
    ),
  );
  const codes = results.map(errorCode);
  assert.equal(codes.filter((x) => x === undefined).length, 1, codes.join(","));
  assert.ok(codes.every((x) => x === undefined || x === "already_terminating"));
  const msgs = await drain(await agentClient(server, a));
  assert.equal(msgs.filter((m) => m.kind === "terminate").length, 1);
});
