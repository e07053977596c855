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
  g = { ...base, taskIds: tasks.map((t) => t.id) };
});

after(async () => {
  process.off("unhandledRejection", onRejection);
  process.off("uncaughtException", onRejection);
  await h?.stop();
});

const MODELS = fs
  .readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8")
  .split("\n")
  .flatMap((l) => l.match(/^model (\w+) \{/)?.[1] ?? []);

/** Every table's row count (a refused call must leave each one as it was). */
async function counts(): Promise<Record<string, number>> {
  return db.read(async ({ db: d }) => {
    const out: Record<string, number> = {};
    for (const m of MODELS) {
      const key = m[0]?.toLowerCase() + m.slice(1);
      out[m] = (await (d as unknown as Record<string, { count(): Promise<number> }>)[key]?.count()) ?? -1;
    }
    return out;
  });
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
  for (const { t, who } of tools) {
    const schema = t.inputSchema as Schema;
    const client =
      who === "owner" ? owner : AS_COORDINATOR.has(t.name) ? g.agents[0]?.client : g.agents[2]?.client;
    assert.ok(client);
    const args = fc.oneof(
      { weight: 10, arbitrary: fromSchema(schema, schema.$defs ?? {}) },
      { weight: 1, arbitrary: anyValue },
    );
    await fc.assert(
      fc.asyncProperty(args, async (input) => {
        const before = await counts();
        let r: unknown;
        try {
          r = await client.callTool(
            { name: t.name, arguments: input as Record<string, unknown> },
            undefined,
            {
              signal: AbortSignal.timeout(1500), // ask_user and long-polls wait; an abort ends them
            },
          );
        } catch (e) {
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
      { ...fuzzParams(RUNS), verbose: 1 },
    );
  }
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
  for (const { method, url } of routes) {
    await fc.assert(
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
      fuzzParams(RUNS * 2),
    );
  }
  assert.deepEqual(problems.map(String), [], "no unhandled rejection or uncaught exception");
});
