// The authorization matrix (issue 16 §2): every MCP tool, REST route, server action and SSE stream, called by
// another owner (and, for agent tools, by an agent of the same owner's other goal) with the ids of a victim's
// objects, is refused as not-found (or forbidden) and changes nothing of the victim's. The lists are read from
// the code — TOOLS (lib/mcp/tools), app/api/**/route.ts and their exported methods, the exports of
// app/**/actions.ts — so a new tool, route, method or action without a case here fails this test.
//
// For another owner the answer must also be the one a missing id gets (same code and status), so ids cannot
// be probed across tenants. Every answer is checked for the victim's marker text (`tgtmark`): nothing of the
// victim's may leak into a list, an error message or a stream.
import assert from "node:assert/strict";
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { DB_Q, inboxQid } from "../helpers/questions";
import { ROOT } from "../helpers/server";

let h: InProcess;
let db: typeof import("@/lib/db");
const MARK = "tgtmark";
const MISSING = 2_000_000_000;

// ---------------------------------------------------------------------------------------------- the fixture

type Ids = {
  goal: number;
  goal2: number;
  agent: number;
  coordinator: number;
  task: number;
  qid: string;
  approval: number;
  request: number;
  token: number;
  secretName: string;
  channel: number;
  owner: number;
  key: number;
  notifChannel: number;
  delivery: number;
  /** A skill of the victim's (its name carries no marker: a 404 may echo the name the caller sent). */
  skill: string;
};
/** The victim's ids, and the same shape with ids that name nothing. */
let V: Ids;
const M: Ids = {
  goal: MISSING,
  goal2: MISSING,
  agent: MISSING,
  coordinator: MISSING,
  task: MISSING,
  qid: "q_0000000000000000",
  approval: MISSING,
  request: MISSING,
  token: MISSING,
  secretName: "NO_SUCH_SECRET",
  channel: MISSING,
  owner: MISSING,
  key: MISSING,
  notifChannel: MISSING,
  delivery: MISSING,
  skill: "no-such-skill",
};
let victimOwnerId: number;
let victimToken: string;
/** Another owner: their token, and their goal's coordinator. */
let otherOwnerToken: string;
let otherOwnerId: number;
let otherAgent: Client;
let otherAgentId: number;
/** The victim owner's second goal's coordinator (same owner, another goal). */
let sameOwnerAgent: Client;
const pendingAsk = new AbortController();

before(async () => {
  h = await startInProcess();
  db = await import("@/lib/db");
  // The victim: a goal with an approved tree, a worker with a pending question and a resource request, a
  // pending agent proposal, a goal secret, a personal token.
  const g = await goalWithAgents(h, 1, "victim@example.com");
  victimToken = g.token;
  const [coord, worker] = g.agents;
  assert.ok(coord && worker);
  await rest(g.token, "PATCH", "/api/goals/0"); // warm the route table (and prove an unknown method is 405)
  const p = await coord.client.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: g.goal.goal_id,
      tree: { title: `${MARK} root task`, description: `The ${MARK} root task, described.` },
    },
  });
  const approval = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  assert.equal((await rest(g.token, "POST", `/api/approvals/${approval}/approve`, {})).status, 200);
  const task = await db.read((u) => u.db.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id } }));
  await db.write((u) =>
    u.db.goal.update({ where: { id: g.goal.goal_id }, data: { title: `${MARK} victim goal` } }),
  );
  await db.write((u) =>
    u.db.agent.update({ where: { id: Number(worker.id) }, data: { name: `${MARK}-worker` } }),
  );
  const claimed = await worker.client.callTool({ name: "claim_task", arguments: { task_id: task.id } });
  assert.equal(errorCode(claimed), undefined, JSON.stringify(claimed));
  const prop = sc<{ approval_message_id: number }>(
    await coord.client.callTool({
      name: "propose_agent",
      arguments: {
        goal_id: g.goal.goal_id,
        parent_task_id: task.id,
        name: `${MARK}-specialist`,
        model: "claude-sonnet-4-5",
        system_prompt: `You are the ${MARK} specialist; report when done.`,
        tool_scope: ["read_inbox", "send_message"],
        autonomy_tier: "assisted",
        reason: `The ${MARK} work needs a specialist.`,
      },
    }),
  );
  const req = sc<{ request_id: number }>(
    await worker.client.callTool({
      name: "request_resource",
      arguments: {
        name: "TGTMARK_KEY",
        resource_type: "api_key",
        reason: `For ${MARK} calls.`,
        task_id: task.id,
      },
    }),
  );
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/task/${task.id}/TGTMARK_SECRET`, { value: "s3cr3t-value" }))
      .status,
    200,
  );
  void worker.client
    .callTool(
      {
        name: "ask_user",
        arguments: { questions: [{ ...DB_Q, question: `Which ${MARK} store?` }] },
      },
      undefined,
      { signal: pendingAsk.signal, timeout: 600_000 },
    )
    .catch(() => {});
  const qid = await inboxQid(coord.client); // it climbs to the worker's leader first
  const victim = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: g.goal.goal_id } }));
  victimOwnerId = victim.ownerId;
  const token = await db.read((u) =>
    u.db.personalToken.findFirstOrThrow({ where: { userId: victimOwnerId } }),
  );
  // A notification channel of the victim's (email: no address check) and one delivery of it (a test send).
  const ch = await rest(g.token, "POST", "/api/notification-channels", {
    kind: "email",
    name: `${MARK} mail`,
    host: "smtp.example.com",
    port: 9,
    from: "hub@example.com",
    to: "victim@example.com",
  });
  assert.equal(ch.status, 201, JSON.stringify(ch.json));
  const notifChannel = (ch.json as { id: number }).id;
  await rest(g.token, "POST", `/api/notification-channels/${notifChannel}/test`, {});
  const delivery = await db.read((u) =>
    u.db.notificationDelivery.findFirstOrThrow({ where: { channelId: notifChannel } }),
  );
  // A skill of the victim's, with the marker in its text.
  const sk = await rest(g.token, "POST", "/api/skills", {
    name: "victim-skill",
    description: `The ${MARK} skill.`,
    system_prompt: `You are the ${MARK} template.`,
  });
  assert.equal(sk.status, 201, sk.text);
  const g2 = await goalWithAgents(h, 0, "victim@example.com");
  sameOwnerAgent = (g2.agents[0] as { client: Client }).client;
  V = {
    goal: g.goal.goal_id,
    goal2: g2.goal.goal_id,
    agent: Number(worker.id),
    coordinator: Number(coord.id),
    task: task.id,
    qid,
    approval: prop.approval_message_id,
    request: req.request_id,
    token: token.id,
    secretName: "TGTMARK_SECRET",
    channel: g.goal.channel_id,
    owner: victimOwnerId,
    key: (await db.read((u) => u.db.apiKey.findFirstOrThrow({ where: { agentId: Number(worker.id) } }))).id,
    notifChannel,
    delivery: delivery.id,
    skill: "victim-skill",
  };
  // Another owner with a goal of their own.
  const o = await goalWithAgents(h, 0, "other@example.com");
  otherOwnerToken = o.token;
  otherAgent = (o.agents[0] as { client: Client }).client;
  otherAgentId = Number(o.agents[0]?.id);
  otherOwnerId = (await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: o.goal.goal_id } })))
    .ownerId;
  assert.notEqual(otherOwnerId, victimOwnerId);
});

after(async () => {
  pendingAsk.abort();
  await h?.stop();
});

async function rest(token: string | undefined, method: string, url: string, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await h.fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = r.headers.get("content-type") ?? "";
  let text = "";
  if (type.includes("event-stream")) text = await firstChunk(r);
  else text = await r.text();
  let json: Record<string, unknown> & { error?: { code: string } } = {};
  try {
    json = text && !type.includes("event-stream") ? JSON.parse(text) : {};
  } catch {}
  return { status: r.status, json, text, code: json.error?.code };
}

/** What an SSE stream sends first (or within 300 ms), then it is cancelled. */
async function firstChunk(r: Response): Promise<string> {
  const reader = r.body?.getReader();
  if (!reader) return "";
  const timeout = new Promise<undefined>((res) => setTimeout(res, 300));
  const chunk = await Promise.race([reader.read().then((c) => c.value), timeout]);
  await reader.cancel().catch(() => {});
  return chunk ? Buffer.from(chunk).toString("utf8") : "";
}

// -------------------------------------------------------------------------------- what "nothing changed" is

const MODELS = fs
  .readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8")
  .split("\n")
  .flatMap((l) => l.match(/^model (\w+) \{/)?.[1] ?? []);
/** Activity stamps a refused call may move (the caller's own key's last use, a runner's last poll). */
const ACTIVITY = new Set(["lastUsedAt", "lastSeenAt", "lastCallAt", "lastActivityAt", "lastToolCallAt"]);

/** Every row of the victim's (their user row, goals, and anything pointing at them), activity stamps aside. */
async function victimRows(): Promise<string> {
  return db.read(async ({ db: d }) => {
    const goals = new Set([V.goal]);
    const agents = new Set(
      (await d.agent.findMany({ where: { goalId: { in: [...goals] } }, select: { id: true } })).map(
        (a) => a.id,
      ),
    );
    const out: string[] = [];
    for (const model of MODELS) {
      const key = model[0]?.toLowerCase() + model.slice(1);
      const rows = (await (d as unknown as Record<string, { findMany(a: object): Promise<object[]> }>)[key]
        ?.findMany({ orderBy: { id: "asc" } })
        .catch(() => undefined)) as Record<string, unknown>[] | undefined;
      for (const row of rows ?? []) {
        const mine =
          (model === "User" && row.id === victimOwnerId) ||
          (model === "Goal" && goals.has(row.id as number)) ||
          (model === "Agent" && agents.has(row.id as number)) ||
          goals.has(row.goalId as number) ||
          // (the same owner's other goal is the second caller's own: its rows may change)
          (row.ownerId === victimOwnerId &&
            row.goalId !== V.goal2 &&
            !(model === "Goal" && row.id === V.goal2)) ||
          row.userId === victimOwnerId ||
          agents.has(row.agentId as number) ||
          agents.has(row.toAgentId as number) ||
          agents.has(row.fromAgentId as number) ||
          row.channelId === V.channel ||
          (model === "Secret" && String(row.name).includes("TGTMARK"));
        if (!mine) continue;
        const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !ACTIVITY.has(k)));
        out.push(`${model} ${JSON.stringify(kept, (_, v) => (typeof v === "bigint" ? String(v) : v))}`);
      }
    }
    return out.join("\n");
  });
}

async function unchanged(what: string, call: () => Promise<void>) {
  const before = await victimRows();
  await call();
  const now = await victimRows();
  if (before !== now) {
    const a = new Set(before.split("\n"));
    const b = new Set(now.split("\n"));
    const diff = [
      ...[...a].filter((x) => !b.has(x)).map((x) => `- ${x}`),
      ...[...b].filter((x) => !a.has(x)).map((x) => `+ ${x}`),
    ];
    assert.fail(`${what} changed the victim's data:\n${diff.join("\n").slice(0, 3000)}`);
  }
}

function noLeak(what: string, text: string) {
  assert.ok(!text.toLowerCase().includes(MARK), `${what} leaked the victim's data: ${text.slice(0, 600)}`);
  // The victim's question id (ids in streams and lists carry no marker text). A call that names it may echo it.
  if (!what.includes(V.qid))
    assert.ok(!text.includes(V.qid), `${what} leaked the victim's qid: ${text.slice(0, 600)}`);
}

/** The refusals that say "no such thing" (or "not yours"), never "exists, but …". */
const NOT_FOUND = new Set([
  "not_found",
  "forbidden",
  "unknown_recipient",
  "unknown_qid",
  "unknown_agent",
  "unknown_task",
]);

// ------------------------------------------------------------------------------------------- MCP tools

type ToolCase =
  /** Takes ids of goals/agents/tasks/questions: each is the victim's, and must be refused like a missing one. */
  | {
      ids: (v: Ids) => Record<string, unknown>;
      /** Codes allowed for the same owner's other goal (the contract's task_mismatch). */
      sameOwner?: readonly string[];
      /** Codes that refuse whatever the id (they reveal nothing: the missing-id comparison still holds). */
      anyId?: readonly string[];
    }
  /** Takes no id of another goal's objects (acts on the caller's own): called, and must not touch the victim. */
  | { self: Record<string, unknown> | null; why: string };

const TOOL_CASES: Record<string, ToolCase> = {
  send_message: { ids: (v) => ({ to: String(v.agent), content: "hello" }), sameOwner: ["task_mismatch"] },
  read_inbox: { self: { ack: MISSING }, why: "acknowledges the caller's own inbox" },
  list_peers: { self: { scope: "all" }, why: "lists the caller's own goal" },
  whoami: { self: {}, why: "the caller itself" },
  propose_task_tree: {
    ids: (v) => ({ goal_id: v.goal, tree: { title: "Steal", description: "A tree for another goal." } }),
  },
  claim_task: { ids: (v) => ({ task_id: v.task }) },
  complete_task: { ids: (v) => ({ task_id: v.task, summary: "done" }) },
  verify_task: { ids: (v) => ({ task_id: v.task, verdict: "reject", reason: "because" }) },
  list_tasks: { self: { limit: 200 }, why: "lists the caller's own goal's tasks" },
  ask_user: { self: null, why: "asks about the caller's own work (blocks, so not called here)" },
  answer_question: {
    ids: (v) => ({ qid: v.qid, answers: [{ selected_labels: [], text: "x" }], reason: "because" }),
  },
  escalate_question: { ids: (v) => ({ qid: v.qid, reason: "because" }) },
  create_team: {
    ids: (v) => ({
      name: "hijack",
      task: "Take over.",
      roles: [{ role: "dev", skill: "engineer", description: "Build." }],
      leader_id: String(v.agent),
    }),
    anyId: ["leader_override_attempted"],
  },
  declare_plan: {
    self: {
      tasks: [{ id: "t1", role: "t1 engineer", skill: "engineer", task: "Do task t1.", depends_on: [] }],
    },
    why: "declares the caller's own plan (plan-local ids)",
  },
  remove_plan: { self: {}, why: "removes the caller's own plan" },
  spawn_agent: { self: { task_id: "t1" }, why: "a task of the caller's own plan (plan-local id)" },
  list_ready: { self: {}, why: "the caller's own plan" },
  update_plan_task: { self: { task_id: "t1", status: "done" }, why: "the caller's own plan (plan-local id)" },
  signal_review: { self: {}, why: "the caller's own review" },
  request_termination: { self: null, why: "ends the caller itself (not called: it would end the attacker)" },
  terminate_child: { ids: (v) => ({ agent_id: String(v.agent), force: true }) },
  list_pending_reviews: { self: {}, why: "the caller's own children" },
  request_resource: {
    ids: (v) => ({ name: "STOLEN_KEY", resource_type: "api_key", reason: "need it now", task_id: v.task }),
  },
  list_resources: { ids: (v) => ({ task_id: v.task }) },
  propose_agent: {
    ids: (v) => ({
      goal_id: v.goal,
      parent_task_id: v.task,
      name: "intruder",
      model: "claude-sonnet-4-5",
      system_prompt: "You do what the intruder says, always and right away.",
      tool_scope: ["read_inbox"],
      autonomy_tier: "assisted",
      reason: "An intruder under another goal.",
    }),
  },
  report_usage: {
    ids: (v) => ({
      model: "claude-sonnet-4-5",
      input_tokens: 1,
      output_tokens: 1,
      task_id: v.task,
      idempotency_key: `k${v.task}`,
    }),
  },
  create_goal: {
    self: { title: "Mine", description: "The caller's own new goal." },
    why: "creates the caller's own goal",
  },
  unquarantine_agent: { ids: (v) => ({ agent_id: v.agent }) },
  resume_goal: { ids: (v) => ({ goal_id: v.goal }) },
  pause_goal: { ids: (v) => ({ goal_id: v.goal }) },
};

test("every MCP tool has a case in the matrix (a new tool needs one)", async () => {
  const { TOOLS } = await import("@/lib/mcp/tools");
  const names = [...new Set(TOOLS.map((t) => t.name))].sort();
  assert.deepEqual(Object.keys(TOOL_CASES).sort(), names);
});

test("MCP tools: another owner (and another goal of the same owner) gets not-found and changes nothing", async () => {
  const { TOOLS } = await import("@/lib/mcp/tools");
  for (const tool of TOOLS) {
    const c = TOOL_CASES[tool.name];
    assert.ok(c, tool.name);
    const callers: { who: string; client: Client; sameOwner: boolean }[] =
      tool.audience === "owner"
        ? [{ who: "another owner", client: await h.client(otherOwnerToken), sameOwner: false }]
        : [
            { who: "another owner's agent", client: otherAgent, sameOwner: false },
            { who: "the same owner's other goal's agent", client: sameOwnerAgent, sameOwner: true },
          ];
    for (const { who, client, sameOwner } of callers) {
      const what = `${tool.name} by ${who}`;
      if ("self" in c) {
        if (c.self === null) continue;
        await unchanged(what, async () => {
          const r = await client.callTool({ name: tool.name, arguments: c.self ?? {} });
          noLeak(what, JSON.stringify(r));
        });
        continue;
      }
      await unchanged(what, async () => {
        const args = c.ids(V);
        const r = await client.callTool({ name: tool.name, arguments: args });
        const code = errorCode(r);
        noLeak(`${what} ${JSON.stringify(args)}`, JSON.stringify(r));
        const allowed = new Set([
          ...NOT_FOUND,
          ...(c.anyId ?? []),
          ...(sameOwner ? (c.sameOwner ?? []) : []),
        ]);
        assert.ok(
          code && allowed.has(code),
          `${what}: expected not-found, got ${JSON.stringify(r).slice(0, 400)}`,
        );
        if (!sameOwner) {
          const missing = await client.callTool({ name: tool.name, arguments: c.ids(M) });
          assert.equal(
            code,
            errorCode(missing),
            `${what}: a victim's id must be refused as a missing one is`,
          );
        }
      });
    }
  }
});

// ------------------------------------------------------------------------------------------- REST routes

type Call = { method: string; path: (v: Ids) => string; body?: (v: Ids) => unknown };
type RouteCase =
  /** Names a victim's object: refused like a missing one (404, or 403). */
  | { ids: Call[] }
  /** The caller's own list or stream: answered, without anything of the victim's. */
  | { own: Call[] }
  /** Not an owner route: `who` says who may call it; an owner's and an agent's credential get 401. */
  | { public: string; calls?: Call[] }
  /**
   * A known gap, listed in SECURITY.md: kept in the table so the methods are still counted; the day the gap
   * closes, make these `ids` cases. (None today: skills were the last, closed in issue 16 §2.)
   */
  | { gap: string; methods: string[] };

const get = (p: (v: Ids) => string): Call => ({ method: "GET", path: p });
const post = (p: (v: Ids) => string, body: (v: Ids) => unknown = () => ({})): Call => ({
  method: "POST",
  path: p,
  body,
});

const ROUTE_CASES: Record<string, RouteCase> = {
  "agents/[id]/reputation": { ids: [get((v) => `/api/agents/${v.agent}/reputation`)] },
  "agents/[id]/restart": { ids: [post((v) => `/api/agents/${v.agent}/restart`)] },
  "agents/[id]/stop": { ids: [post((v) => `/api/agents/${v.agent}/stop`)] },
  "agents/[id]/terminate": { ids: [post((v) => `/api/agents/${v.agent}/terminate`)] },
  "agents/[id]/unquarantine": { ids: [post((v) => `/api/agents/${v.agent}/unquarantine`)] },
  "approvals/[id]/approve": { ids: [post((v) => `/api/approvals/${v.approval}/approve`)] },
  "approvals/[id]/reject": {
    ids: [
      post(
        (v) => `/api/approvals/${v.approval}/reject`,
        () => ({ reason: "no" }),
      ),
    ],
  },
  approvals: { own: [get(() => "/api/approvals")] },
  "auth/[...nextauth]": { public: "next-auth's sign-in flow (rate limited, docs/decisions.md)" },
  costs: { own: [get(() => "/api/costs")] },
  "goals/[id]/agents/[agentId]/transcript": {
    ids: [get((v) => `/api/goals/${v.goal}/agents/${v.agent}/transcript`)],
  },
  "goals/[id]/agents/[agentId]/transcript/stream": {
    ids: [get((v) => `/api/goals/${v.goal}/agents/${v.agent}/transcript/stream`)],
  },
  "goals/[id]/cancel": {
    ids: [
      post(
        (v) => `/api/goals/${v.goal}/cancel`,
        () => ({ reason: "mine now" }),
      ),
    ],
  },
  "goals/[id]/costs": { ids: [get((v) => `/api/goals/${v.goal}/costs`)] },
  "goals/[id]/events": { ids: [get((v) => `/api/goals/${v.goal}/events`)] },
  "goals/[id]/messages": { ids: [get((v) => `/api/goals/${v.goal}/messages`)] },
  "goals/[id]/pause": { ids: [post((v) => `/api/goals/${v.goal}/pause`)] },
  "goals/[id]/resume": { ids: [post((v) => `/api/goals/${v.goal}/resume`)] },
  "goals/[id]": { ids: [get((v) => `/api/goals/${v.goal}`)] },
  "goals/[id]/stream": { ids: [get((v) => `/api/goals/${v.goal}/stream`)] },
  "goals/[id]/tasks/[taskId]/cancel": { ids: [post((v) => `/api/goals/${v.goal}/tasks/${v.task}/cancel`)] },
  goals: {
    own: [
      get(() => "/api/goals"),
      post(
        () => "/api/goals",
        () => ({ title: "Mine", description: "The caller's own goal." }),
      ),
    ],
  },
  health: { public: "liveness, reveals nothing", calls: [get(() => "/api/health")] },
  "inbox/stream": { own: [get(() => "/api/inbox/stream")] },
  "notification-channels": {
    own: [
      get(() => "/api/notification-channels"),
      post(
        () => "/api/notification-channels",
        () => ({
          kind: "email",
          name: "mine",
          host: "smtp.example.com",
          from: "a@example.com",
          to: "b@example.com",
        }),
      ),
    ],
  },
  "notification-channels/[id]": {
    ids: [
      get((v) => `/api/notification-channels/${v.notifChannel}`),
      {
        method: "PATCH",
        path: (v) => `/api/notification-channels/${v.notifChannel}`,
        body: () => ({ name: "x" }),
      },
      { method: "DELETE", path: (v) => `/api/notification-channels/${v.notifChannel}` },
    ],
  },
  "notification-channels/[id]/rotate-secret": {
    ids: [post((v) => `/api/notification-channels/${v.notifChannel}/rotate-secret`)],
  },
  "notification-channels/[id]/test": {
    ids: [post((v) => `/api/notification-channels/${v.notifChannel}/test`)],
  },
  "notification-deliveries": { own: [get(() => "/api/notification-deliveries")] },
  "notification-deliveries/[id]/replay": {
    ids: [post((v) => `/api/notification-deliveries/${v.delivery}/replay`)],
  },
  "notification-settings": {
    own: [
      get(() => "/api/notification-settings"),
      { method: "PUT", path: () => "/api/notification-settings", body: () => ({ batch_seconds: 30 }) },
    ],
  },
  notifications: { own: [get(() => "/api/notifications")] },
  "notifications/actions/[token]": {
    public: "the signed single-use action token is the credential (tests/in-process/notifications.test.ts)",
  },
  "notifications/slack/[id]/interactive": {
    public: "Slack's signed callback; the channel's signing secret is the credential (notifications tests)",
  },
  "questions/[qid]/answer": {
    ids: [
      post(
        (v) => `/api/questions/${v.qid}/answer`,
        () => ({ answers: [{ selected_labels: [], text: "x" }] }),
      ),
    ],
  },
  "questions/[qid]/decline": {
    ids: [
      post(
        (v) => `/api/questions/${v.qid}/decline`,
        () => ({ reason: "no" }),
      ),
    ],
  },
  "questions/[qid]": { ids: [get((v) => `/api/questions/${v.qid}`)] },
  questions: { own: [get(() => "/api/questions?status=pending"), get(() => "/api/questions")] },
  "questions/stream": { own: [get(() => "/api/questions/stream")] },
  "requests/[id]/decline": {
    ids: [
      post(
        (v) => `/api/requests/${v.request}/decline`,
        () => ({ reason: "no" }),
      ),
    ],
  },
  "requests/[id]/supply": {
    ids: [
      post(
        (v) => `/api/requests/${v.request}/supply`,
        () => ({ value: "attacker-value", scope: "task" }),
      ),
    ],
  },
  requests: { own: [get(() => "/api/requests")] },
  "runner/agents/[id]/events": {
    public: "runners (operator's runner token)",
    calls: [post((v) => `/api/runner/agents/${v.agent}/events`)],
  },
  "runner/agents/[id]/key": {
    public: "runners (operator's runner token)",
    calls: [post((v) => `/api/runner/agents/${v.agent}/key`)],
  },
  "runner/agents/[id]/renew": {
    public: "runners (operator's runner token)",
    calls: [post((v) => `/api/runner/agents/${v.agent}/renew`)],
  },
  "runner/agents/[id]/state": {
    public: "runners (operator's runner token)",
    calls: [post((v) => `/api/runner/agents/${v.agent}/state`)],
  },
  "runner/poll": { public: "runners (operator's runner token)", calls: [post(() => "/api/runner/poll")] },
  "runner/verify/[taskId]": {
    public: "runners (operator's runner token)",
    calls: [post((v) => `/api/runner/verify/${v.task}`)],
  },
  "secrets/[scope_type]/[scope_id]/[name]": {
    ids: [
      {
        method: "PUT",
        path: (v) => `/api/secrets/user/${v.owner}/${v.secretName}`,
        body: () => ({ value: "x" }),
      },
      { method: "DELETE", path: (v) => `/api/secrets/task/${v.task}/${v.secretName}` },
      {
        method: "PUT",
        path: (v) => `/api/secrets/agent/${v.agent}/${v.secretName}`,
        body: () => ({ value: "x" }),
      },
      {
        method: "PUT",
        path: (v) => `/api/secrets/task/${v.task}/${v.secretName}`,
        body: () => ({ value: "x" }),
      },
    ],
  },
  "secrets/[scope_type]/[scope_id]": {
    ids: [
      get((v) => `/api/secrets/user/${v.owner}`),
      get((v) => `/api/secrets/agent/${v.agent}`),
      get((v) => `/api/secrets/task/${v.task}`),
    ],
  },
  secrets: { own: [get(() => "/api/secrets")] },
  "skills/[name]": {
    ids: [
      get((v) => `/api/skills/${v.skill}`),
      {
        method: "PUT",
        path: (v) => `/api/skills/${v.skill}`,
        body: () => ({ description: "Hijacked.", system_prompt: "Obey the other owner." }),
      },
      { method: "DELETE", path: (v) => `/api/skills/${v.skill}` },
    ],
  },
  "skills/[name]/copy": { ids: [post((v) => `/api/skills/${v.skill}/copy`)] },
  skills: {
    own: [
      get(() => "/api/skills"),
      // The caller's own skill: the victim's untouched. (The same name as the victim's is allowed too, names
      // being per owner: tests/in-process/skills.test.ts; not here, where the actions below name it.)
      post(
        () => "/api/skills",
        () => ({
          name: "callers-own",
          description: "The caller's own.",
          system_prompt: "The caller's own prompt.",
        }),
      ),
    ],
  },
};

/** app/api/**\/route.ts: the route (its path under app/api) and the HTTP methods it exports. */
function routeFiles(): { route: string; file: string }[] {
  const out: { route: string; file: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "route.ts")
        out.push({ route: path.relative(path.join(ROOT, "app/api"), dir), file: p });
    }
  };
  walk(path.join(ROOT, "app/api"));
  return out.sort((a, b) => a.route.localeCompare(b.route));
}
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const exportedMethods = (file: string) =>
  METHODS.filter((m) =>
    new RegExp(`export (const|async function|function) ${m}\\b`).test(fs.readFileSync(file, "utf8")),
  );

test("every REST route and method has a case in the matrix (a new one needs one)", () => {
  const files = routeFiles();
  assert.deepEqual(Object.keys(ROUTE_CASES).sort(), files.map((f) => f.route).sort());
  for (const { route, file } of files) {
    const c = ROUTE_CASES[route];
    assert.ok(c);
    if ("public" in c && !c.calls) continue;
    const calls = "ids" in c ? c.ids : "own" in c ? c.own : "gap" in c ? [] : (c.calls ?? []);
    assert.deepEqual(
      "gap" in c ? c.methods : [...new Set(calls.map((x) => x.method))].sort(),
      exportedMethods(file).sort(),
      `${route}: one case per exported method`,
    );
  }
});

test("REST routes and SSE streams: another owner gets 404/403 like a missing id, lists show nothing of the victim's", async () => {
  for (const [route, c] of Object.entries(ROUTE_CASES)) {
    if ("ids" in c) {
      for (const call of c.ids) {
        const what = `${call.method} ${call.path(V)} (${route}) by another owner`;
        await unchanged(what, async () => {
          const r = await rest(otherOwnerToken, call.method, call.path(V), call.body?.(V));
          noLeak(what, r.text);
          assert.ok(r.status === 404 || r.status === 403, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
          const m = await rest(otherOwnerToken, call.method, call.path(M), call.body?.(M));
          assert.deepEqual([r.status, r.code], [m.status, m.code], `${what}: refused unlike a missing id`);
        });
      }
    } else if ("own" in c) {
      for (const call of c.own) {
        const what = `${call.method} ${call.path(V)} by another owner`;
        await unchanged(what, async () => {
          const r = await rest(otherOwnerToken, call.method, call.path(V), call.body?.(V));
          assert.ok(r.status < 300, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
          noLeak(what, r.text);
        });
        // The victim sees their own: the marker check above can fail.
        if (
          call.method === "GET" &&
          (route === "goals" || route === "approvals" || route === "requests" || route === "skills")
        ) {
          const mine = await rest(victimToken, call.method, call.path(V));
          assert.ok(mine.text.toLowerCase().includes(MARK), `${route}: the victim's own list shows it`);
        }
      }
    } else if ("public" in c) {
      for (const call of c.calls ?? []) {
        const what = `${call.method} ${call.path(V)} (${c.public})`;
        await unchanged(what, async () => {
          const r = await rest(otherOwnerToken, call.method, call.path(V), call.body?.(V));
          noLeak(what, r.text);
          if (route.startsWith("runner/")) assert.equal(r.status, 401, `${what} with an owner token`);
          else assert.equal(r.status, 200, what);
        });
      }
    }
  }
});

// ------------------------------------------------------------------------------------------ server actions

/** Each server action, called as another owner with the victim's ids. `null`: takes no victim id (why). */
type ActionCase = ((v: Ids) => Promise<unknown>) | { none: string };
const form = (o: Record<string, string>) => {
  const f = new FormData();
  for (const [k, val] of Object.entries(o)) f.set(k, val);
  return f;
};
// biome-ignore lint/suspicious/noExplicitAny: the action modules are imported dynamically
type Mod = Record<string, (...a: any[]) => Promise<unknown>>;
const actions: Record<string, Mod> = {};
const act = (file: string, name: string) => actions[file]?.[name] as (...a: unknown[]) => Promise<unknown>;

const ACTION_CASES: Record<string, ActionCase> = {
  "approvals/actions.ts#decideAction": (v) =>
    act("approvals/actions.ts", "decideAction")(v.approval, "0".repeat(64), "approve", ""),
  "goals/actions.ts#createGoalAction": { none: "creates the caller's own goal" },
  "goals/[id]/actions.ts#issueKeyAction": (v) => act("goals/[id]/actions.ts", "issueKeyAction")(v.agent),
  "goals/[id]/actions.ts#sendOwnerMessageAction": (v) =>
    act("goals/[id]/actions.ts", "sendOwnerMessageAction")(v.agent, "hello from another owner"),
  "goals/[id]/actions.ts#unquarantineAction": (v) =>
    act("goals/[id]/actions.ts", "unquarantineAction")(v.agent),
  "goals/[id]/actions.ts#pauseGoalAction": (v) => act("goals/[id]/actions.ts", "pauseGoalAction")(v.goal),
  "goals/[id]/actions.ts#resumeGoalAction": (v) =>
    act("goals/[id]/actions.ts", "resumeGoalAction")(v.goal, "10", ""),
  "goals/[id]/actions.ts#revokeAgentKeyAction": async (v) => {
    const revoke = act("goals/[id]/actions.ts", "revokeAgentKeyAction");
    const refused = async (f: () => Promise<unknown>) => {
      try {
        return { ok: await f() };
      } catch (e) {
        return { thrown: (e as { code?: string }).code ?? String(e) };
      }
    };
    // The victim's key by the victim's agent, and by the caller's own agent (a key of another agent).
    return [await refused(() => revoke(v.agent, v.key)), await refused(() => revoke(otherAgentId, v.key))];
  },
  "goals/[id]/actions.ts#runControlAction": async (v) => {
    const run = act("goals/[id]/actions.ts", "runControlAction");
    return [await run(v.agent, "stop"), await run(v.agent, "restart"), await run(v.agent, "terminate")];
  },
  "n/[token]/actions.ts#redeemTokenAction": {
    none: "the signed single-use token is the credential (tests/in-process/notifications.test.ts)",
  },
  "settings/notifications/actions.ts#createChannelAction": { none: "creates the caller's own channel" },
  "settings/notifications/actions.ts#saveSettingsAction": { none: "the caller's own defaults" },
  "settings/notifications/actions.ts#setChannelEnabledAction": (v) =>
    act("settings/notifications/actions.ts", "setChannelEnabledAction")(v.notifChannel, false),
  "settings/notifications/actions.ts#deleteChannelAction": (v) =>
    act("settings/notifications/actions.ts", "deleteChannelAction")(v.notifChannel),
  "settings/notifications/actions.ts#testChannelAction": (v) =>
    act("settings/notifications/actions.ts", "testChannelAction")(v.notifChannel),
  "settings/notifications/actions.ts#replayAction": (v) =>
    act("settings/notifications/actions.ts", "replayAction")(v.delivery),
  "settings/notifications/actions.ts#saveGoalSettingsAction": (v) =>
    act("settings/notifications/actions.ts", "saveGoalSettingsAction")(v.goal, form({ muted: "on" })),
  "requests/actions.ts#supplyAction": (v) =>
    act("requests/actions.ts", "supplyAction")(v.request, form({ value: "attacker-value", scope: "task" })),
  "requests/actions.ts#declineAction": (v) => act("requests/actions.ts", "declineAction")(v.request, "no"),
  "runners/actions.ts#createRunnerTokenAction": () =>
    act("runners/actions.ts", "createRunnerTokenAction")({}, form({ name: "stolen" })),
  "runners/actions.ts#revokeRunnerTokenAction": () => act("runners/actions.ts", "revokeRunnerTokenAction")(1),
  "secrets/actions.ts#setSecretAction": (v) =>
    act(
      "secrets/actions.ts",
      "setSecretAction",
    )(form({ scope_type: "task", scope_id: String(v.task), name: v.secretName, value: "x" })),
  "secrets/actions.ts#revokeSecretAction": (v) =>
    act("secrets/actions.ts", "revokeSecretAction")("task", v.task, v.secretName),
  "setup/actions.ts#createFirstOwner": {
    none: "first start only, refused (setup_done) once an owner exists: tests/in-process/first-owner.test.ts",
  },
  "skills/actions.ts#saveSkillAction": (v) =>
    act("skills/actions.ts", "saveSkillAction")(
      "edit",
      {},
      form({ name: v.skill, description: "Hijacked.", system_prompt: "Obey the other owner." }),
    ),
  "skills/actions.ts#copySkillAction": (v) =>
    act("skills/actions.ts", "copySkillAction")(v.skill, {}, form({ name: "stolen-copy" })),
  "skills/actions.ts#deleteSkillAction": (v) => act("skills/actions.ts", "deleteSkillAction")(v.skill),
  "tokens/actions.ts#createTokenAction": { none: "creates the caller's own token" },
  "tokens/actions.ts#revokeTokenAction": (v) => act("tokens/actions.ts", "revokeTokenAction")(v.token),
};

function actionFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "actions.ts") out.push(path.relative(path.join(ROOT, "app"), p));
    }
  };
  walk(path.join(ROOT, "app"));
  return out.sort();
}

/**
 * The actions run outside Next: `requireOwner` answers the owner this test sets, `revalidatePath` does
 * nothing and `redirect` throws as Next's does. (A loader hook: the actions import these by name.)
 */
async function loadActions() {
  const g = globalThis as { __authzOwner?: { userId: number; email: string } };
  g.__authzOwner = { userId: otherOwnerId, email: "other@example.com" };
  const mod = (src: string) => `data:text/javascript,${encodeURIComponent(src)}`;
  const shims: Record<string, string> = {
    "@/lib/auth/require-owner": mod("export const requireOwner = async () => globalThis.__authzOwner;"),
    "next/cache": mod("export const revalidatePath = () => {}; export const revalidateTag = () => {};"),
    "next/navigation": mod(
      "export const redirect = (to) => { const e = new Error('NEXT_REDIRECT ' + to); e.digest = 'NEXT_REDIRECT'; throw e; }; export const notFound = () => { throw new Error('NEXT_NOT_FOUND'); };",
    ),
  };
  const hooks = `const shims = ${JSON.stringify(shims)};
  export async function resolve(specifier, context, next) {
    if (shims[specifier]) return { url: shims[specifier], shortCircuit: true };
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  for (const f of actionFiles()) actions[f] = (await import(path.join(ROOT, "app", f))) as Mod;
}

test("every server action has a case in the matrix (a new one needs one)", async () => {
  if (Object.keys(actions).length === 0) await loadActions();
  const exported = Object.entries(actions).flatMap(([f, m]) =>
    Object.entries(m)
      .filter(([, fn]) => typeof fn === "function")
      .map(([name]) => `${f}#${name}`),
  );
  assert.deepEqual(Object.keys(ACTION_CASES).sort(), exported.sort());
});

test("server actions: another owner is refused and changes nothing", async () => {
  if (Object.keys(actions).length === 0) await loadActions();
  for (const [name, c] of Object.entries(ACTION_CASES)) {
    if (typeof c !== "function") continue;
    await unchanged(name, async () => {
      let out: unknown;
      try {
        out = await c(V);
      } catch (e) {
        out = { thrown: (e as { code?: string }).code ?? String(e) };
      }
      const text = JSON.stringify(out);
      noLeak(name, text);
      // A refusal: an {error} (or a thrown domain error), never a success.
      const results = Array.isArray(out) ? out : [out];
      for (const r of results) {
        const o = r as { error?: string; thrown?: string; fieldErrors?: unknown };
        const refused =
          (o?.error !== undefined && /not found|only the hub's operator/i.test(o.error)) ||
          (o?.thrown !== undefined && NOT_FOUND.has(o.thrown));
        assert.ok(refused, `${name}: expected not-found (or forbidden), got ${text.slice(0, 300)}`);
      }
    });
  }
});
