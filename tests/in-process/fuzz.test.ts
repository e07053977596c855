// Fuzzing (issue 16 §6): property-based calls of every MCP tool (arguments derived from its input schema as
// tools/list shows it, mixed with adversarial values) and every owner REST route that takes a body. Whatever
// the input: no 5xx / internal_error, no thrown protocol error, no unhandled rejection, and a call that was
// refused wrote nothing (every table's row count unchanged).
//
// Short in CI (FUZZ_RUNS per tool, default 12); the long run is `npm run fuzz` (FUZZ_RUNS=300, FUZZ_SEED=n
// replays a failure: the seed is printed with it).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { anyValue, fromSchema, fuzzParams, NASTY_STRINGS, type Schema } from "../helpers/fuzz";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";
import { ROOT } from "../helpers/server";

let h: InProcess;
let db: typeof import("@/lib/db");
let catalogue: Record<string, unknown>;
const RUNS = 12;
const problems: unknown[] = [];
const onRejection = (e: unknown) => problems.push(e);

type Fixture = Awaited<ReturnType<typeof goalWithAgents>> & { taskIds: number[] };
let g: Fixture;

before(async () => {
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onRejection);
  h = await startInProcess();
  db = await import("@/lib/db");
  catalogue = (await import("@/lib/errors/catalogue")).CATALOGUE as Record<string, unknown>;
  g = await fixture();
});

/**
 * A goal with an approved two-task tree, a coordinator and two workers. The fuzz may complete or end it
 * (its agents' keys then retire: the harness refuses them at authentication as /mcp answers 401): the
 * tool loop then starts over on a fresh one.
 */
async function fixture(): Promise<Fixture> {
  const base = await goalWithAgents(h, 2);
  const coordinator = base.agents[0]?.client as Client;
  const p = await coordinator.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: base.goal.goal_id,
      tree: {
        title: "Fuzz root",
        description: "The root task of the fuzz goal.",
        children: [{ title: "Fuzz child", description: "A child task to claim and complete." }],
      },
    },
  });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const ok = await h.fetch(`/api/approvals/${id}/approve`, {
    method: "POST",
    headers: { authorization: `Bearer ${base.token}`, "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(ok.status, 200);
  const tasks = await db.read((u) => u.db.goalTask.findMany({ where: { goalId: base.goal.goal_id } }));
  return { ...base, taskIds: tasks.map((t) => t.id) };
}

after(async () => {
  process.off("unhandledRejection", onRejection);
  process.off("uncaughtException", onRejection);
  await h?.stop();
});

const MODELS = fs
  .readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8")
  .split("\n")
  .flatMap((l) => l.match(/^model (\w+) \{/)?.[1] ?? []);

/** Every table's row count in one query (a refused call must leave each one as it was). */
async function counts(): Promise<Record<string, unknown>> {
  const sql = `SELECT ${MODELS.map((m) => `(SELECT COUNT(*) FROM "${m}") AS "${m}"`).join(", ")}`;
  const row = await db.read(({ sql: s }) => s.get<Record<string, unknown>>(sql));
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}

const show = (x: unknown) => {
  const s = JSON.stringify(x, (_, v) =>
    typeof v === "string" && v.length > 80 ? `${v.slice(0, 40)}…(${v.length})` : v,
  );
  return (s ?? String(x)).slice(0, 600);
};

/** Tools that act on their caller's own team: the coordinator calls them (others: a worker). */
const AS_COORDINATOR = new Set([
  "propose_task_tree",
  "propose_agent",
  "declare_plan",
  "spawn_agent",
  "list_ready",
  "update_plan_task",
  "remove_plan",
  "terminate_child",
  "create_team",
  "list_pending_reviews",
  "verify_task",
]);

test("MCP tools: random and adversarial arguments never crash, never 5xx, never half-write", async () => {
  const owner = await h.client(g.token);
  const worker = g.agents[1]?.client;
  assert.ok(worker);
  const agentTools = await worker.listTools();
  const ownerTools = await owner.listTools();
  const tools = [
    ...agentTools.tools.map((t) => ({ t, who: "agent" as const })),
    ...ownerTools.tools.filter((t) => t.name !== "whoami").map((t) => ({ t, who: "owner" as const })),
  ];
  const { TOOLS } = await import("@/lib/mcp/tools");
  assert.deepEqual(
    [...new Set(tools.map((x) => x.t.name))].sort(),
    [...new Set(TOOLS.map((t) => t.name))].sort(),
    "every tool is fuzzed",
  );
  const failures: string[] = [];
  for (const { t, who } of tools) {
    const schema = t.inputSchema as Schema;
    const clientNow = () =>
      who === "owner" ? owner : AS_COORDINATOR.has(t.name) ? g.agents[0]?.client : g.agents[2]?.client;
    const args = fc.oneof(
      { weight: 10, arbitrary: fromSchema(schema, schema.$defs ?? {}) },
      { weight: 1, arbitrary: anyValue },
    );
    const run = fc.check(
      fc.asyncProperty(args, async (input) => {
        const before = await counts();
        let r: unknown;
        const client = clientNow();
        assert.ok(client);
        try {
          r = await client.callTool(
            { name: t.name, arguments: input as Record<string, unknown> },
            undefined,
            {
              signal: AbortSignal.timeout(800), // ask_user and long-polls wait; an abort ends them
            },
          );
        } catch (e) {
          if ((e as { code?: string }).code === "agent_retired" || /^Error: 401/.test(String(e))) {
            g = await fixture(); // the fuzz ended this goal or agent (/mcp: 401): go on with a fresh one
            return;
          }
          if ((e as Error).name === "AbortError" || /abort|timed out|cancel/i.test(String(e))) return;
          // The SDK client refuses a non-object `arguments` before sending: that is not the server's answer.
          if (typeof input !== "object" || input === null || Array.isArray(input)) return;
          throw new Error(`${t.name} threw ${String(e)} for ${show(input)}`);
        }
        const code = errorCode(r);
        if (code === undefined) return;
        assert.notEqual(code, "internal_error", `${t.name}: internal_error for ${show(input)}`);
        assert.ok(code in catalogue, `${t.name}: ${code} is not a catalogue code`);
        if (code === "cancelled") return;
        assert.deepEqual(
          await counts(),
          before,
          `${t.name}: refused with ${code} but wrote rows, for ${show(input)}`,
        );
      }),
      fuzzParams(RUNS),
    );
    const out = await run;
    if (out.failed) failures.push(`${t.name} (seed ${out.seed}): ${String(out.errorInstance ?? out.error)}`);
  }
  assert.deepEqual(failures, [], "every tool survives its fuzz");
  assert.deepEqual(problems.map(String), [], "no unhandled rejection or uncaught exception");
});

/** Field names of the REST bodies (and a few that are not), for bodies that look almost right. */
const FIELDS = [
  "title",
  "description",
  "budget_dollars_cents",
  "budget_tokens",
  "max_spawn_depth",
  "coordinator_config",
  "value",
  "scope",
  "reason",
  "answers",
  "content_hash",
  "new_budget_dollars_cents",
  "new_budget_tokens",
  "name",
  "system_prompt",
  "tools",
  "model",
  "__proto__",
];
const bodyArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELDS), fc.oneof(anyValue, fc.constantFrom(...NASTY_STRINGS)))
      .map((o) => JSON.stringify(o)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) }, // not JSON at all
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", "\u0000", '{"answers":[{}]}', "1e999") },
);

/** app/api/**\/route.ts that take a body, with the fixture's ids in their paths (runner routes aside: a runner token). */
function bodyRoutes(): { method: string; url: string }[] {
  const ids: Record<string, string> = {
    id: String(g.goal.goal_id),
    agentId: g.agents[1]?.id ?? "1",
    taskId: String(g.taskIds[0]),
    qid: "q_missing",
    scope_type: "task",
    scope_id: String(g.taskIds[0]),
    name: "FUZZ_SECRET",
  };
  const out: { method: string; url: string }[] = [];
  const walk = (dir: string, segs: string[]) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), [...segs, e.name]);
      else if (e.name === "route.ts") {
        if (segs[0] === "runner" || segs.some((s) => s.startsWith("[..."))) continue;
        const src = fs.readFileSync(path.join(dir, e.name), "utf8");
        const url = `/api/${segs.map((s) => (s.startsWith("[") ? (ids[s.slice(1, -1)] ?? "1") : s)).join("/")}`;
        for (const m of ["POST", "PUT", "PATCH"])
          if (new RegExp(`export const ${m}\\b`).test(src)) out.push({ method: m, url });
      }
    }
  };
  walk(path.join(ROOT, "app/api"), []);
  return out;
}

test("REST bodies: random and adversarial bodies never 5xx and never half-write", async () => {
  const routes = bodyRoutes();
  assert.ok(routes.length >= 10, `found ${routes.length} body routes`);
  const failures: string[] = [];
  for (const { method, url } of routes) {
    const out = await fc.check(
      fc.asyncProperty(bodyArb, async (body) => {
        const before = await counts();
        const r = await h.fetch(url, {
          method,
          headers: { authorization: `Bearer ${g.token}`, "content-type": "application/json" },
          body,
        });
        const text = await r.text();
        assert.ok(r.status < 500, `${method} ${url}: ${r.status} ${text.slice(0, 300)} for ${show(body)}`);
        if (r.status < 400) return;
        const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        assert.ok(code && code in catalogue, `${method} ${url}: ${text.slice(0, 200)}`);
        assert.deepEqual(
          await counts(),
          before,
          `${method} ${url}: ${r.status} ${code} but wrote rows, for ${show(body)}`,
        );
      }),
      fuzzParams(RUNS),
    );
    if (out.failed)
      failures.push(`${method} ${url} (seed ${out.seed}): ${String(out.errorInstance ?? out.error)}`);
  }
  assert.deepEqual(failures, [], "every route survives its fuzz");
  assert.deepEqual(problems.map(String), [], "no unhandled rejection or uncaught exception");
});

test("numbers past the database's 32-bit Int are refused alike on both providers (fuzz findings)", async () => {
  g = await fixture(); // the REST fuzz may have cancelled the goal (POST /api/goals/:id/cancel)
  const coordinator = g.agents[0]?.client;
  const worker = g.agents[2]?.client;
  assert.ok(coordinator && worker);
  const owner = await h.client(g.token);
  const big = 2 ** 31;
  const cases: [Client, string, Record<string, unknown>, string[]][] = [
    [worker, "claim_task", { task_id: big }, ["invalid_input"]],
    [worker, "complete_task", { task_id: Number.MAX_SAFE_INTEGER, summary: "done" }, ["invalid_input"]],
    [worker, "list_resources", { task_id: big }, ["invalid_input"]],
    [
      coordinator,
      "propose_task_tree",
      { goal_id: big, tree: { title: "T", description: "A tree." } },
      ["invalid_input"],
    ],
    [owner, "resume_goal", { goal_id: big }, ["invalid_input"]],
    [owner, "unquarantine_agent", { agent_id: big }, ["invalid_input"]],
    [
      owner,
      "create_goal",
      { title: "Big", description: "A big budget.", budget_dollars_cents: 3_000_000_000 },
      ["invalid_input"],
    ],
    // Token budgets are 64-bit columns (issue 12): bounded at 10^15, not 2^31 (tests/in-process/usage-bigint.test.ts).
    [
      owner,
      "create_goal",
      { title: "Big", description: "A big budget.", budget_tokens: 1e15 + 1 },
      ["invalid_input"],
    ],
    [worker, "send_message", { to: "99999999999", content: "hi" }, ["unknown_recipient"]],
    [coordinator, "terminate_child", { agent_id: "99999999999" }, ["unknown_agent", "not_leader"]],
  ];
  for (const [client, name, args, codes] of cases) {
    const before = await counts();
    const r = await client.callTool({ name, arguments: args });
    assert.ok(codes.includes(errorCode(r) ?? ""), `${name} ${show(args)}: ${show(r)}`);
    assert.deepEqual(await counts(), before, name);
  }
  // An ack past every id confirms everything delivered (no error).
  const r = await worker.callTool({ name: "read_inbox", arguments: { ack: 2 ** 40 } });
  assert.equal(errorCode(r), undefined, show(r));
});

test("a NUL character in any string is invalid_input on both providers, before anything is written (fuzz finding)", async () => {
  g = await fixture();
  const worker = g.agents[2]?.client;
  assert.ok(worker);
  const owner = await h.client(g.token);
  const before = await counts();
  const r1 = await owner.callTool({
    name: "create_goal",
    arguments: { title: "Nul goal", description: "A description with a \u0000 inside." },
  });
  assert.equal(errorCode(r1), "invalid_input");
  assert.match(JSON.stringify(sc(r1)), /description: contains a NUL character/);
  const r2 = await worker.callTool({
    name: "send_message",
    arguments: { to: g.agents[0]?.id, content: "hi\u0000there" },
  });
  assert.equal(errorCode(r2), "invalid_input");
  const r3 = await h.fetch("/api/goals", {
    method: "POST",
    headers: { authorization: `Bearer ${g.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Nul\u0000goal", description: "A goal created over REST." }),
  });
  assert.equal(r3.status, 422);
  assert.equal(((await r3.json()) as { error: { code: string } }).error.code, "invalid_input");
  assert.deepEqual(await counts(), before);
});

/** Query parameters the GET routes read (and one they do not). */
const QUERY_KEYS = [
  "after",
  "before",
  "limit",
  "page",
  "status",
  "goal_id",
  "kind",
  "cursor",
  "after_message",
  "after_event",
  "group_by",
  "from",
  "to",
  "unknown",
];
const queryValue = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "-1",
    "1.5",
    "1e3",
    "abc",
    "2147483648",
    "99999999999",
    "9007199254740993",
    "NaN",
    "%00",
  ),
  fc.integer({ min: -5, max: 50 }).map(String),
  fc.constantFrom(...NASTY_STRINGS.filter((x) => x.length < 200)),
);

test("REST queries: random and adversarial query strings on every GET route never 5xx", async () => {
  const ids: Record<string, string> = {
    id: String(g.goal.goal_id),
    agentId: g.agents[1]?.id ?? "1",
    taskId: String(g.taskIds[0]),
    qid: "q_missing",
    scope_type: "task",
    scope_id: String(g.taskIds[0]),
    name: "engineer",
  };
  const routes: string[] = [];
  const walk = (dir: string, segs: string[]) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), [...segs, e.name]);
      else if (e.name === "route.ts") {
        // Streams answer 200 and then stream: their cursors are read by the same schemas as the lists'.
        if (segs[0] === "runner" || segs.at(-1) === "stream" || segs.some((s) => s.startsWith("[...")))
          continue;
        if (!/export const GET\b/.test(fs.readFileSync(path.join(dir, e.name), "utf8"))) continue;
        routes.push(
          `/api/${segs.map((s) => (s.startsWith("[") ? (ids[s.slice(1, -1)] ?? "1") : s)).join("/")}`,
        );
      }
    }
  };
  walk(path.join(ROOT, "app/api"), []);
  const failures: string[] = [];
  for (const url of routes) {
    const out = await fc.check(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...QUERY_KEYS), queryValue, { maxKeys: 3 }),
        async (q) => {
          const r = await h.fetch(`${url}?${new URLSearchParams(q)}`, {
            headers: { authorization: `Bearer ${g.token}` },
          });
          const text = await r.text();
          assert.ok(
            r.status < 500,
            `GET ${url}?${new URLSearchParams(q)}: ${r.status} ${text.slice(0, 200)}`,
          );
        },
      ),
      fuzzParams(RUNS),
    );
    if (out.failed) failures.push(`GET ${url} (seed ${out.seed}): ${String(out.errorInstance ?? out.error)}`);
  }
  assert.deepEqual(failures, [], "every GET route survives its query fuzz");
});

test("create_goal: coordinator_config names its own templates only (__proto__ was an internal error; fuzz finding)", async () => {
  const owner = await h.client(g.token);
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    const before = await counts();
    const r = await owner.callTool({
      name: "create_goal",
      arguments: {
        title: "Proto goal",
        description: "A goal with a strange template.",
        coordinator_config: name,
      },
    });
    assert.equal(errorCode(r), "invalid_input", `${name}: ${show(r)}`);
    assert.deepEqual(await counts(), before, name);
  }
});
