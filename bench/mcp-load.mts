// MCP load benchmark: N agents with their own keys and SDK clients against a real `next start` server.
//   npm run build && npm run bench -- [--agents 50] [--seconds 15] [--warmup 5] [--rounds 20]
//   npm run bench -- --db postgres                 (the same phases on a fresh PostgreSQL database, issue 15)
//   npm run bench -- --db postgres --instances 2   (two servers on one database behind bench/tcp-proxy.mjs;
//                                                    the wake phase waits on instance B and sends through A)
//   npm run bench -- --url http://127.0.0.1:3000 --keys keys.txt   (an already running server; one agent key a line)
// Phase 1: whoami closed loop (the ceiling). Phase 2: send_message (ring i -> i+1) + read_inbox(ack) closed
// loop, then every inbox is drained and delivery checked. Phase 3: wake latency of a waiting read_inbox.
// Optional phase `usage` (`--phases whoami,usage`, issue 12): report_usage closed loop, against the whoami ceiling.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs, promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpClient, ROOT, startServer, type TestServer } from "../tests/helpers/server";

const { values: opt } = parseArgs({
  options: {
    agents: { type: "string", default: "50" },
    seconds: { type: "string", default: "15" },
    warmup: { type: "string", default: "5" },
    rounds: { type: "string", default: "20" },
    url: { type: "string" },
    keys: { type: "string" },
    phases: { type: "string", default: "whoami,messaging,wake" },
    db: { type: "string", default: "sqlite" },
    instances: { type: "string", default: "1" },
    "server-cpu-prof": { type: "string" },
  },
});
const N = Number(opt.agents);
const SECONDS = Number(opt.seconds);
const WARMUP = Number(opt.warmup);
const ROUNDS = Number(opt.rounds);
const CALL_TIMEOUT_MS = 30_000;
const TARGETS = { ratio: 0.7, p99Ms: 100, wakeP50Ms: 20 };
const DB = opt.db === "postgres" ? "postgres" : "sqlite";
const INSTANCES = Number(opt.instances);

/**
 * The processes whose CPU the report counts: the servers' process trees, the proxy (several instances),
 * and on PostgreSQL the backends connected to the bench's database (listed at the start of each phase).
 */
const procs: { servers: number[]; proxy?: number; db: number[]; dbUrl?: string } = { servers: [], db: [] };

async function listBackends(): Promise<number[]> {
  if (!procs.dbUrl) return [];
  const pg = (await import("pg")).default;
  const c = new pg.Client({ connectionString: procs.dbUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return r.rows.map((x) => x.pid);
  } finally {
    await c.end();
  }
}

type Agent = { id: string; client: Client; key?: string };
type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };
type InboxResult = { messages: { message_id: string; created_at: string }[]; ack: number; more: boolean };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(pct(s, 50)), p99: round(pct(s, 99)), max: round(s.at(-1) ?? Number.NaN) };
}

/** A tool call that throws on transport errors and on isError results, so both count as errors. */
async function call<T = Record<string, unknown>>(
  a: Agent,
  name: string,
  args: Record<string, unknown>,
  timeout = CALL_TIMEOUT_MS,
) {
  const r = (await a.client.callTool({ name, arguments: args }, undefined, { timeout })) as ToolResult;
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent?.error ?? r)}`);
  return r.structuredContent as T;
}

/**
 * CPU seconds used so far by this process, by the server's process tree (local server only) and by the
 * whole machine (Linux /proc), to tell when something else competes for the cores during a run.
 */
function cpuSeconds(): { client: number; server: number; proxy: number; db: number; machine: number } {
  const u = process.cpuUsage();
  const ticks = (pid: number): number => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      const own = Number(f[11]) + Number(f[12]); // utime + stime
      const kids = fs
        .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      return own + kids.reduce((t, k) => t + ticks(Number(k)), 0);
    } catch {
      return 0;
    }
  };
  const [, user, nice, system, , , irq, softirq, steal] =
    fs.readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/) ?? [];
  const machine = [user, nice, system, irq, softirq, steal].reduce((t, x) => t + Number(x ?? 0), 0) / 100;
  const sum = (pids: number[]) => pids.reduce((t, p) => t + ticks(p), 0) / 100;
  return {
    client: (u.user + u.system) / 1e6,
    server: sum(procs.servers),
    proxy: procs.proxy ? sum([procs.proxy]) : 0,
    db: sum(procs.db),
    machine,
  };
}

/**
 * Run `body` per agent in a closed loop: WARMUP seconds unrecorded, then SECONDS recorded. A call is recorded
 * when it starts inside the window: the warm-up absorbs the opening of the connections (under load the server
 * accepts about one new connection per event-loop turn, so a burst of fresh connections waits seconds).
 */
async function closedLoop(agents: Agent[], body: (a: Agent, i: number, rec: Recorder) => Promise<void>) {
  const lat = new Map<string, number[]>();
  const errors: string[] = [];
  const warmup = { calls: 0, errors: 0, max_ms: 0 };
  let recording = false;
  const rec: Recorder = async (tool, fn) => {
    const counted = recording;
    const t0 = performance.now();
    try {
      const r = await fn();
      const ms = performance.now() - t0;
      if (counted) {
        const l = lat.get(tool) ?? [];
        l.push(ms);
        lat.set(tool, l);
      } else {
        warmup.calls++;
        warmup.max_ms = Math.max(warmup.max_ms, round(ms));
      }
      return r;
    } catch (e) {
      if (counted) errors.push(`${tool}: ${(e as Error).message}`);
      else warmup.errors++;
      return undefined;
    }
  };
  let running = true;
  const loops = agents.map(async (a, i) => {
    while (running) await body(a, i, rec);
  });
  await sleep(WARMUP * 1000);
  procs.db = await listBackends();
  recording = true;
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  running = false;
  await Promise.all(loops);
  const elapsed = (performance.now() - t0) / 1000;
  recording = false;
  const cpu1 = cpuSeconds();
  const calls = [...lat.values()].reduce((n, l) => n + l.length, 0) + errors.length;
  const server = cpu1.server - cpu0.server; // 0 against --url: the server then counts as "other"
  const client = cpu1.client - cpu0.client;
  const proxy = cpu1.proxy - cpu0.proxy;
  const db = cpu1.db - cpu0.db;
  const local = procs.servers.length > 0;
  return {
    seconds: round(elapsed, 2),
    calls,
    calls_per_s: round(calls / elapsed),
    errors: errors.length,
    error_samples: [...new Set(errors)].slice(0, 5),
    warmup,
    latency_ms: Object.fromEntries([...lat].map(([k, v]) => [k, summary(v)])),
    cpu_pct: {
      server: local ? round((100 * server) / elapsed) : null,
      client: round((100 * client) / elapsed),
      proxy: round((100 * proxy) / elapsed),
      db: round((100 * db) / elapsed),
      other: round((100 * (cpu1.machine - cpu0.machine - server - client - proxy - db)) / elapsed),
    },
    // Server CPU per call: unlike calls/s, hardly affected by other processes competing for the cores.
    server_cpu_ms_per_call: local ? round((1000 * server) / calls, 2) : null,
    // PostgreSQL: CPU of the database's backends per call (the bench database's connections only).
    db_cpu_ms_per_call: procs.db.length > 0 ? round((1000 * db) / calls, 2) : null,
  };
}
type Recorder = <T>(tool: string, fn: () => Promise<T>) => Promise<T | undefined>;

async function whoamiPhase(agents: Agent[]) {
  return closedLoop(agents, async (a, _i, rec) => void (await rec("whoami", () => call(a, "whoami", {}))));
}

/** issue 12: report_usage closed loop (a unique idempotency key per call; list price from the price table). */
async function usagePhase(agents: Agent[]) {
  let n = 0;
  return closedLoop(
    agents,
    async (a, _i, rec) =>
      void (await rec("report_usage", () =>
        call(a, "report_usage", {
          model: "claude-sonnet-4",
          input_tokens: 1200,
          output_tokens: 300,
          cache_read_tokens: 5000,
          idempotency_key: `bench-${process.pid}-${++n}`,
        }),
      )),
  );
}

async function messagingPhase(agents: Agent[]) {
  const sent = new Set<string>();
  const received = new Map<string, number>();
  const acks = new Map<string, number>();
  const take = (a: Agent, r: InboxResult | undefined) => {
    if (!r) return;
    for (const m of r.messages) received.set(m.message_id, (received.get(m.message_id) ?? 0) + 1);
    acks.set(a.id, r.ack);
  };
  const load = await closedLoop(agents, async (a, i, rec) => {
    const to = agents[(i + 1) % agents.length] as Agent;
    const s = await rec("send_message", () =>
      call<{ message_id: string }>(a, "send_message", { to: to.id, content: `bench ${a.id}->${to.id}` }),
    );
    if (s) sent.add(s.message_id);
    take(a, await rec("read_inbox", () => call<InboxResult>(a, "read_inbox", { ack: acks.get(a.id) })));
  });
  // Drain: read every inbox until empty; the last (empty) read acknowledges everything.
  for (const a of agents) {
    for (let k = 0; k < 1000; k++) {
      const r = await call<InboxResult>(a, "read_inbox", { ack: acks.get(a.id), limit: 100 });
      take(a, r);
      if (r.messages.length === 0) break;
    }
  }
  const missing = [...sent].filter((id) => !received.has(id)).length;
  const duplicates = [...received.values()].filter((n) => n > 1).length;
  return {
    ...load,
    delivery: { sent: sent.size, received_distinct: received.size, missing, redelivered: duplicates },
  };
}

/** K rounds: one agent already waits in read_inbox, another sends to it; time until the wait returns. */
/** Several instances: the server URLs, so that the wake phase can wait on B and send through A. */
let instanceUrls: string[] = [];
/** Clients the wake phase opened on one instance each (closed at the end). */
const wakeClients: Agent[] = [];

/** `a` with its own client on instance `i` (several instances), else `a`. */
async function on(a: Agent, i: number): Promise<Agent> {
  const url = instanceUrls[i];
  if (!url || !a.key) return a;
  const direct = { id: a.id, key: a.key, client: await mcpClient(url, a.key) };
  wakeClients.push(direct);
  return direct;
}

async function wakePhase(agents: Agent[]) {
  const total: number[] = [];
  const sendToCreate: number[] = [];
  const createToReceipt: number[] = [];
  const errors: string[] = [];
  const acks = new Map<string, number>();
  for (let r = 0; r < ROUNDS; r++) {
    // Several instances: the waiter long-polls on instance B, the message is sent through instance A.
    const waiter = await on(agents[(2 * r) % agents.length] as Agent, 1);
    const sender = await on(agents[(2 * r + 1) % agents.length] as Agent, 0);
    try {
      const waiting = call<InboxResult>(
        waiter,
        "read_inbox",
        { ack: acks.get(waiter.id), wait_seconds: 10, limit: 10 },
        20_000,
      );
      await sleep(300); // let the read reach the server and start waiting
      const w0 = Date.now();
      const t0 = performance.now();
      const sending = call<{ message_id: string }>(sender, "send_message", {
        to: waiter.id,
        content: `wake ${r}`,
      });
      const got = await waiting;
      const t1 = performance.now();
      const w1 = Date.now();
      const { message_id } = await sending;
      const m = got.messages.find((x) => x.message_id === message_id);
      acks.set(waiter.id, got.ack);
      if (!m)
        throw new Error(`round ${r}: the wait returned without the message (${got.messages.length} others)`);
      const created = Date.parse(m.created_at);
      total.push(t1 - t0);
      sendToCreate.push(created - w0);
      createToReceipt.push(w1 - created);
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  for (const a of agents) if (acks.has(a.id)) await call(a, "read_inbox", { ack: acks.get(a.id) });
  return {
    rounds: ROUNDS,
    errors: errors.length,
    error_samples: errors.slice(0, 5),
    total_ms: summary(total),
    send_to_created_ms: summary(sendToCreate),
    created_to_receipt_ms: summary(createToReceipt),
  };
}

/** N agents of one fresh goal on a fresh server, registered by bench/create-agents.mts in one process. */
async function setupLocal(server: TestServer, n: number, url = server.url): Promise<Agent[]> {
  const owner = await mcpClient(server.url, await server.ownerToken());
  const goal = await call<{ goal_id: number }>({ id: "owner", client: owner }, "create_goal", {
    title: "Benchmark goal",
    description: "Created by bench/mcp-load.mts.",
  });
  await owner.close();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
      path.join(import.meta.dirname, "create-agents.mts"),
      String(goal.goal_id),
      String(n),
    ],
    { cwd: ROOT, env: { ...server.env, NODE_OPTIONS: "" }, timeout: 120_000 },
  );
  const created = JSON.parse(stdout) as { agent_id: number; api_key: string }[];
  return Promise.all(
    created.map(async (a) => ({
      id: String(a.agent_id),
      key: a.api_key,
      client: await mcpClient(url, a.api_key),
    })),
  );
}

async function setupRemote(url: string, keysFile: string): Promise<Agent[]> {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname))
    throw new Error("--url must be a loopback address");
  const keys = fs.readFileSync(keysFile, "utf8").split(/\s+/).filter(Boolean).slice(0, N);
  return Promise.all(
    keys.map(async (key) => {
      const client = await mcpClient(url, key);
      const me = await call<{ agent_id: string }>({ id: "?", client }, "whoami", {});
      return { id: me.agent_id, client };
    }),
  );
}

/** This process's children (servers, the proxy; the CLI children are gone once setup is over). */
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

/** Start a child that spawns after `start` resolves, and return its pid (the one child that is new). */
async function newChild<T>(start: () => Promise<T>): Promise<[T, number | undefined]> {
  const before = new Set(children());
  const r = await start();
  return [r, children().find((p) => !before.has(p))];
}

/** Start bench/tcp-proxy.mjs in front of `targets`; resolves once it listens. */
async function startProxy(targets: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "tcp-proxy.mjs"), "0", ...targets], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      const m = String(d).match(/ready (\d+)/);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`proxy exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function main() {
  const phases = new Set(opt.phases.split(","));
  const limitMs = (120 + 2 * (WARMUP + SECONDS) + ROUNDS * 12 + N) * 1000;
  const profDir = opt["server-cpu-prof"] && path.resolve(opt["server-cpu-prof"]);
  const servers: TestServer[] = [];
  let proxy: ChildProcess | undefined;
  let agents: Agent[] = [];
  const stop = async () => {
    await Promise.allSettled([...agents, ...wakeClients].map((a) => a?.client.close()));
    proxy?.kill();
    // the profile is written on a normal exit only
    if (profDir) await Promise.all(procs.servers.map((p) => endGracefully(p)));
    // The first server owns the database: stop it last.
    for (const s of [...servers].reverse()) await s.stop();
  };
  const watchdog = setTimeout(() => {
    console.error(`bench: time limit of ${limitMs / 1000} s exceeded`);
    void stop().finally(() => process.exit(2));
  }, limitMs);
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => void stop().finally(() => process.exit(130)));
  }
  try {
    const t = Date.now();
    if (opt.url) {
      if (!opt.keys) throw new Error("--url needs --keys <file with one agent key a line>");
      agents = await setupRemote(opt.url, opt.keys);
    } else {
      // Node 20 refuses --cpu-prof in NODE_OPTIONS: profile through a preload instead (bench/cpu-prof.cjs).
      const preload = `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(import.meta.dirname, "cpu-prof.cjs")}`;
      const env: Record<string, string> = profDir
        ? { NODE_OPTIONS: preload.trim(), CPU_PROF_DIR: profDir }
        : {};
      for (let i = 0; i < INSTANCES; i++) {
        const [s, pid] = await newChild(() =>
          startServer({ provider: DB, env, shareDatabaseWith: servers[0] }),
        );
        servers.push(s);
        if (pid) procs.servers.push(pid);
      }
      const first = servers[0] as TestServer;
      if (DB === "postgres") procs.dbUrl = first.env.DATABASE_URL;
      let url = first.url;
      if (servers.length > 1) {
        const p = await startProxy(servers.map((s) => new URL(s.url).host));
        proxy = p.child;
        procs.proxy = p.child.pid;
        url = p.url;
        instanceUrls = servers.map((s) => s.url);
      }
      agents = await setupLocal(first, N, url);
    }
    console.error(
      `bench: ${agents.length} agents ready in ${round((Date.now() - t) / 1000)} s on ${DB}, ` +
        `${servers.length || "remote"} instance(s) (server pids ${procs.servers.join(", ")})`,
    );
    const whoami = phases.has("whoami") ? await whoamiPhase(agents) : undefined;
    if (whoami) console.error(`bench: whoami ${whoami.calls_per_s} calls/s`);
    const usage = phases.has("usage") ? await usagePhase(agents) : undefined;
    if (usage) console.error(`bench: report_usage ${usage.calls_per_s} calls/s`);
    const messaging = phases.has("messaging") ? await messagingPhase(agents) : undefined;
    if (messaging) console.error(`bench: messaging ${messaging.calls_per_s} calls/s`);
    const wake = phases.has("wake") ? await wakePhase(agents) : undefined;
    const ratio = whoami && messaging ? round(messaging.calls_per_s / whoami.calls_per_s, 2) : undefined;
    const p99s = Object.values(messaging?.latency_ms ?? {}).map((l) => l.p99);
    const errors =
      (whoami ? whoami.errors + whoami.warmup.errors : 0) +
      (usage ? usage.errors + usage.warmup.errors : 0) +
      (messaging ? messaging.errors + messaging.warmup.errors : 0) +
      (wake?.errors ?? 0);
    const verdicts: Record<string, boolean> = {
      [`zero errors, nothing lost (${errors} errors, ${messaging?.delivery.missing ?? 0} missing)`]:
        errors + (messaging?.delivery.missing ?? 0) === 0,
    };
    if (ratio !== undefined) {
      verdicts[`messaging calls/s >= ${TARGETS.ratio * 100}% of whoami (${round(ratio * 100, 0)}%)`] =
        ratio >= TARGETS.ratio;
    }
    if (whoami && usage) {
      const r = round(usage.calls_per_s / whoami.calls_per_s, 2);
      verdicts[`report_usage calls/s >= ${TARGETS.ratio * 100}% of whoami (${round(r * 100, 0)}%)`] =
        r >= TARGETS.ratio;
    }
    if (messaging) {
      verdicts[`messaging p99 < ${TARGETS.p99Ms} ms (${p99s.join(" / ")})`] = p99s.every(
        (p) => p < TARGETS.p99Ms,
      );
    }
    if (wake)
      verdicts[`wake p50 < ${TARGETS.wakeP50Ms} ms (${wake.total_ms.p50})`] =
        wake.total_ms.p50 < TARGETS.wakeP50Ms;
    const result = {
      date: new Date().toISOString(),
      config: {
        db: DB,
        instances: servers.length || null,
        loadavg: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
        agents: agents.length,
        seconds: SECONDS,
        warmup: WARMUP,
        rounds: ROUNDS,
        url: opt.url ?? "local",
      },
      whoami,
      usage,
      messaging,
      wake,
      ratio,
      verdicts,
    };
    printTable(result);
    const dir = path.join(import.meta.dirname, "results");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${result.date.replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
    process.exitCode = Object.values(verdicts).every(Boolean) ? 0 : 1;
  } finally {
    clearTimeout(watchdog);
    await stop();
  }
}

/** SIGTERM the server and wait (at most 15 s) for it to exit. */
async function endGracefully(pid: number) {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 150 && fs.existsSync(`/proc/${pid}/stat`); i++) {
    if (fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) return; // exited, not yet reaped
    await sleep(100);
  }
}

type Phase = {
  calls_per_s: number;
  errors: number;
  error_samples: string[];
  cpu_pct: { server: number | null; client: number; proxy: number; db: number; other: number };
  server_cpu_ms_per_call: number | null;
  db_cpu_ms_per_call: number | null;
  warmup: { calls: number; errors: number; max_ms: number };
};
type Latency = { n: number; p50: number; p99: number; max: number };

function printTable(r: {
  whoami?: Phase & { latency_ms: Record<string, Latency> };
  usage?: Phase & { latency_ms: Record<string, Latency> };
  messaging?: Awaited<ReturnType<typeof messagingPhase>>;
  wake?: Awaited<ReturnType<typeof wakePhase>>;
  verdicts: Record<string, boolean>;
}) {
  const rows: (string | number)[][] = [
    [
      "phase",
      "tool",
      "calls/s",
      "n",
      "p50 ms",
      "p99 ms",
      "max ms",
      "errors",
      "cpu % server/db/proxy/bench/other",
      "cpu ms/call server/db",
    ],
  ];
  for (const [name, ph] of [
    ["whoami", r.whoami],
    ["usage", r.usage],
    ["messaging", r.messaging],
  ] as const) {
    for (const [tool, l] of Object.entries(ph?.latency_ms ?? {})) {
      const c = ph?.cpu_pct;
      const cpu = c ? `${c.server ?? "n/a"}/${c.db}/${c.proxy}/${c.client}/${c.other}` : "";
      const perCall = `${ph?.server_cpu_ms_per_call ?? "n/a"}/${ph?.db_cpu_ms_per_call ?? "n/a"}`;
      rows.push([
        name,
        tool,
        ph?.calls_per_s ?? "",
        l.n,
        l.p50,
        l.p99,
        l.max,
        ph?.errors ?? "",
        cpu,
        perCall,
      ]);
    }
  }
  const w = r.wake;
  if (w) {
    for (const [part, l] of [
      ["send->woken", w.total_ms],
      ["send->created", w.send_to_created_ms],
      ["created->woken", w.created_to_receipt_ms],
    ] as const) {
      rows.push(["wake", part, "", l.n, l.p50, l.p99, l.max, w.errors, "", ""]);
    }
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => String(row[c]).length))) ?? [];
  for (const row of rows) console.log(row.map((v, c) => String(v).padEnd(widths[c] ?? 0)).join("  "));
  for (const [name, ph] of [
    ["whoami", r.whoami],
    ["messaging", r.messaging],
  ] as const) {
    if (ph)
      console.log(
        `${name} warm-up: ${ph.warmup.calls} calls, ${ph.warmup.errors} errors, slowest ${ph.warmup.max_ms} ms`,
      );
  }
  const d = r.messaging?.delivery;
  if (d)
    console.log(
      `\ndelivery: sent ${d.sent}, received ${d.received_distinct} distinct, missing ${d.missing}, redelivered ${d.redelivered}`,
    );
  for (const e of [
    ...(r.whoami?.error_samples ?? []),
    ...(r.messaging?.error_samples ?? []),
    ...(w?.error_samples ?? []),
  ]) {
    console.log(`error: ${e}`);
  }
  for (const [target, ok] of Object.entries(r.verdicts))
    console.log(`${ok ? "MET   " : "MISSED"}  ${target}`);
}

await main();
