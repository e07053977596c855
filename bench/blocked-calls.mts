// Blocked-calls benchmark (issue 15): many calls blocked at once on one instance, half `ask_user` waiting
// for their leader (the goal's coordinator), half `read_inbox` long-polls; how much memory they cost the
// server, and how soon each returns once its answer (answer_question, or a message) is in.
//   npm run build && npm run bench:blocked -- [--db sqlite|postgres] [--calls 1000]
// Each agent has its own key and SDK client; a call counts as blocked once it has sent its first progress
// notification (so it waits inside the server). RSS is the server's process tree (VmRSS), measured after
// every agent made one call (warm) and again with every call blocked.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs, promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpClient, ROOT, startServer, type TestServer } from "../tests/helpers/server";

const { values: opt } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    calls: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "25" },
  },
});
const DB = opt.db === "postgres" ? "postgres" : "sqlite";
const CALLS = Number(opt.calls);
const CONCURRENCY = Number(opt.concurrency);
const TARGETS = { rssMb: 300, returnMs: 1000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
  return { n: s.length, p50: round(pct(50)), p99: round(pct(99)), max: round(s.at(-1) ?? Number.NaN) };
}

/** VmRSS of `pid` and its descendants, in MB. */
function rssMb(pid: number): number {
  try {
    const kb = Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    const kids = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return kb / 1024 + kids.reduce((t, k) => t + rssMb(Number(k)), 0);
  } catch {
    return 0;
  }
}

/** Run `fn` over `items`, at most `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < items.length) await fn(items[i++] as T);
    }),
  );
}

type Agent = { id: string; client: Client };
type Blocked = {
  agent: Agent;
  kind: "ask" | "poll";
  blocked: boolean;
  answerStartedAt?: number;
  answeredAt?: number;
  returnedAt?: number;
};

async function main() {
  const serverEnv = { SWITCHBOARD_PROGRESS_EVERY_S: "1", SWITCHBOARD_MAX_WAIT_S: "600" };
  const before = new Set(children());
  const server: TestServer = await startServer({ provider: DB, env: serverEnv });
  const pid = children().find((p) => !before.has(p));
  if (!pid) throw new Error("no server process");
  const errors: string[] = [];
  let agents: Agent[] = [];
  try {
    const token = await server.ownerToken();
    const owner = await mcpClient(server.url, token);
    const made = await owner.callTool({
      name: "create_goal",
      arguments: { title: "Blocked calls", description: "Created by bench/blocked-calls.mts." },
    });
    if (made.isError) throw new Error(`create_goal: ${JSON.stringify(made.structuredContent)}`);
    const { goal_id: goal, coordinator_agent_id: coordinatorId } = made.structuredContent as {
      goal_id: number;
      coordinator_agent_id: number;
    };
    await owner.close();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
        path.join(import.meta.dirname, "create-agents.mts"),
        String(goal),
        String(CALLS + 1),
      ],
      { cwd: ROOT, env: { ...server.env, NODE_OPTIONS: "" }, timeout: 600_000, maxBuffer: 64 << 20 },
    );
    const created = JSON.parse(stdout) as { agent_id: number; api_key: string }[];
    agents = [];
    await pool(created, CONCURRENCY, async (a) => {
      agents.push({ id: String(a.agent_id), client: await mcpClient(server.url, a.api_key) });
    });
    const sender = agents.pop() as Agent;
    // Warm: every agent makes one call, so the server has seen every key and connection.
    await pool(
      agents,
      CONCURRENCY,
      async (a) => void (await a.client.callTool({ name: "whoami", arguments: {} })),
    );
    await sleep(2000);
    const rss0 = rssMb(pid);

    const calls: Blocked[] = agents.map((agent, i) => ({
      agent,
      kind: i % 2 === 0 ? "ask" : "poll",
      blocked: false,
    }));
    const t0 = performance.now();
    const running = calls.map(async (c) => {
      const onprogress = () => {
        c.blocked = true;
      };
      const opts = { timeout: 60_000, resetTimeoutOnProgress: true, onprogress };
      try {
        const r =
          c.kind === "ask"
            ? await c.agent.client.callTool(
                {
                  name: "ask_user",
                  arguments: {
                    questions: [
                      { question: `Go on? (${c.agent.id})`, header: "Go", multiSelect: false, options: [] },
                    ],
                  },
                },
                undefined,
                opts,
              )
            : await c.agent.client.callTool(
                { name: "read_inbox", arguments: { wait_seconds: 600 } },
                undefined,
                opts,
              );
        c.returnedAt = performance.now();
        if (process.env.BENCH_DEBUG)
          console.error(
            c.kind,
            c.agent.id,
            Math.round((c.answeredAt ?? 0) - t0),
            Math.round(c.returnedAt - t0),
          );
        if (r.isError) throw new Error(JSON.stringify(r.structuredContent));
        if (c.kind === "poll" && (r.structuredContent as { messages: unknown[] }).messages.length === 0)
          throw new Error("long-poll returned empty");
      } catch (e) {
        c.returnedAt ??= performance.now();
        errors.push(`${c.kind}: ${(e as Error).message}`);
      }
    });
    for (let i = 0; i < 600 && calls.some((c) => !c.blocked && c.returnedAt === undefined); i++)
      await sleep(100);
    const blockedAt = round((performance.now() - t0) / 1000, 2);
    const blocked = calls.filter((c) => c.blocked && c.returnedAt === undefined).length;
    await sleep(2000);
    const rss1 = rssMb(pid);
    console.error(
      `bench: ${blocked} of ${calls.length} calls blocked after ${blockedAt} s; RSS ${round(rss0)} -> ${round(rss1)} MB`,
    );

    // Answer them all: the coordinator answers the questions, the sender messages the pollers.
    const rest = async (method: string, p: string, body?: unknown) => {
      const r = await server.fetch(p, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    };
    // The agents' leader is the goal's coordinator: their questions wait in its inbox; it answers them with
    // answer_question (one call each). Which call each qid belongs to: the owner's view of the question.
    const coordinator = await mcpClient(server.url, await server.agentKey(String(coordinatorId)));
    const qids: string[] = [];
    for (let ack: number | undefined, k = 0; k < 1000; k++) {
      const r = (await coordinator.callTool({ name: "read_inbox", arguments: { ack, limit: 100 } }))
        .structuredContent as { messages: { kind: string; content: string }[]; ack: number };
      ack = r.ack;
      for (const m of r.messages) {
        const qid = m.kind === "question" ? m.content.match(/qid=(q_\w+)/)?.[1] : undefined;
        if (qid) qids.push(qid);
      }
      if (r.messages.length === 0) break;
    }
    const qidOf = new Map<string, string>();
    await pool(qids, CONCURRENCY, async (qid) => {
      const q = (await rest("GET", `/api/questions/${qid}`)).json as { asker?: { agent_id: string } };
      if (q.asker) qidOf.set(q.asker.agent_id, qid);
    });
    if (process.env.BENCH_DEBUG) console.error(`${qids.length} questions, ${qidOf.size} mapped`);
    const tA = performance.now();
    // A call's answer is in once the answering call has returned (its unit committed): latency from there.
    // (The answering calls queue behind each other under load; from their start would count that too.)
    await pool(calls, CONCURRENCY, async (c) => {
      c.answerStartedAt = performance.now();
      if (c.kind === "ask") {
        const qid = qidOf.get(c.agent.id);
        if (!qid) return void errors.push(`ask: no pending question for agent ${c.agent.id}`);
        const r = await coordinator.callTool({
          name: "answer_question",
          arguments: { qid, answers: [{ selected_labels: [], text: "Yes" }], reason: "bench" },
        });
        c.answeredAt = performance.now();
        if (r.isError) errors.push(`answer ${qid}: ${JSON.stringify(r.structuredContent)}`);
      } else {
        const r = await sender.client.callTool({
          name: "send_message",
          arguments: { to: c.agent.id, content: "go" },
        });
        c.answeredAt = performance.now();
        if (r.isError) errors.push(`send: ${JSON.stringify(r.structuredContent)}`);
      }
    });
    const answerSeconds = round((performance.now() - tA) / 1000, 2);
    await Promise.race([Promise.all(running), sleep(30_000)]);
    const after = calls.filter((c) => c.answeredAt !== undefined && c.returnedAt !== undefined);
    const lat = (k: Blocked["kind"]) =>
      summary(
        after.filter((c) => c.kind === k).map((c) => (c.returnedAt as number) - (c.answeredAt as number)),
      );
    const all = summary(after.map((c) => (c.returnedAt as number) - (c.answeredAt as number)));
    const fromStart = summary(after.map((c) => (c.returnedAt as number) - (c.answerStartedAt as number)));
    const result = {
      date: new Date().toISOString(),
      config: {
        db: DB,
        calls: calls.length,
        loadavg: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
      },
      blocked,
      seconds_to_block_all: blockedAt,
      rss_mb: { warm: round(rss0), blocked: round(rss1), growth: round(rss1 - rss0) },
      answer_seconds: answerSeconds,
      returned: after.length,
      return_after_answer_ms: { ask_user: lat("ask"), read_inbox: lat("poll"), all },
      return_after_answering_call_started_ms: fromStart,
      errors: errors.length,
      error_samples: [...new Set(errors)].slice(0, 5),
    };
    const verdicts = {
      [`all ${calls.length} blocked at once, zero errors (${blocked} blocked, ${errors.length} errors)`]:
        blocked === calls.length && errors.length === 0,
      [`RSS growth < ${TARGETS.rssMb} MB (${result.rss_mb.growth})`]: result.rss_mb.growth < TARGETS.rssMb,
      [`every call returns within ${TARGETS.returnMs} ms of its answer (max ${all.max})`]:
        after.length === calls.length && all.max < TARGETS.returnMs,
    };
    console.log(JSON.stringify({ ...result, verdicts }, null, 2));
    const dir = path.join(import.meta.dirname, "results");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `blocked-${result.date.replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, `${JSON.stringify({ ...result, verdicts }, null, 2)}\n`);
    for (const [t, ok] of Object.entries(verdicts)) console.log(`${ok ? "MET   " : "MISSED"}  ${t}`);
    process.exitCode = Object.values(verdicts).every(Boolean) ? 0 : 1;
  } finally {
    await Promise.allSettled(agents.map((a) => a.client.close()));
    await server.stop();
  }
}

function children(): number[] {
  try {
    return fs
      .readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

await main();
