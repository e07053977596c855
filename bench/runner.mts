// Runner benchmarks (issue 11, BENCHMARKS.md "Runner"): real server, real runner, real Claude Code (the Agent
// SDK's bundled CLI) against the stand-in model (lib/standin/model-server.ts), on a fresh SQLite database.
//
//   latency  (a) goal created (POST /api/goals) → the coordinator's first tool call on the hub
//                (declare_plan: the hub's `plan_declared` event, stamped by the hub), over --goals goals, with the
//                breakdown: → launched (agent_started) → Claude Code's first model request → the tool call;
//            (b) message sent to a running, idle agent (send_message over /mcp from a teammate) → its turn
//                starts (the stand-in receives the model request carrying it), --messages per goal.
//   session  (b) without hub and feeder: deliver() into one claude-code session (the runtime, in this
//                process) → the stand-in receives the request; 4 × --messages turns.
//   feeder   (b)'s runner part: the inbox feeder in this process on a registered agent, a session that only
//                timestamps deliveries: send → handed out → deliver(); 10 × --messages messages.
//   idle     (c) --agents coordinators on one runner process (bin/runner.mjs), each idle after its first
//                turn: RSS and PSS of the runner and its children, CPU of the runner (and of the children)
//                over --idle-s seconds.
//
// Usage: npx tsx bench/runner.mts [--phases latency,session,idle] [--goals 20] [--messages 5] [--agents 50]
//                                 [--idle-s 30] [--min-free-mb 3000] [--standalone-runner]
// Needs `npm run build`. Prints a JSON summary last (and the load average before and after each phase).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { hubTool } from "../lib/runner/runtimes/claude-code-policy";
import type { ModelReply, ModelRequest, ModelServer } from "../lib/standin/model-server";
import { startModelServer } from "../lib/standin/model-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};
const phases = arg("phases", "latency,session,idle").split(",");
const GOALS = Number(arg("goals", "20"));
const MESSAGES = Number(arg("messages", "5"));
const AGENTS = Number(arg("agents", "50"));
const IDLE_S = Number(arg("idle-s", "30"));
const MIN_FREE_MB = Number(arg("min-free-mb", "3000"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (s: string) => process.stderr.write(`${s}\n`);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const memAvailableMb = () =>
  Number(fs.readFileSync("/proc/meminfo", "utf8").match(/MemAvailable:\s+(\d+)/)?.[1] ?? 0) / 1024;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN) : NaN;
}
const stats = (xs: number[]) => ({
  n: xs.length,
  p50: Math.round(pct(xs, 50)),
  p95: Math.round(pct(xs, 95)),
  max: Math.round(Math.max(...xs)),
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The stand-in's bench script: a coordinator's first turn (its goal) declares a plan when `plan` is set (a
 * tool call the hub records with its own clock: the `plan_declared` event; the runner's own read_inbox
 * calls with the agent's key make Agent.lastToolCallAt useless here), and every other turn ends at once.
 */
const benchScript =
  (plan: boolean) =>
  (req: ModelRequest): ModelReply => {
    if (!req.tools.includes(hubTool("whoami"))) return { text: "ok" };
    if (req.toolResults.length > 0) return { text: "Ready." };
    if (plan && /\[GOAL #\d+\]/.test(req.lastUserText))
      return {
        text: "Planning.",
        tools: [
          {
            name: hubTool("declare_plan"),
            input: { tasks: [{ id: "t1", role: "engineer", skill: "engineer", task: "Do it." }] },
          },
        ],
      };
    return { text: "Idle." };
  };

type Hub = {
  url: string;
  server: ChildProcess;
  dir: string;
  dbUrl: string;
  stop(): Promise<void>;
};

async function startHub(model: ModelServer, env: Record<string, string>): Promise<Hub> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-bench-runner-"));
  const dbUrl = `file:${path.join(dir, "switchboard.db")}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(ROOT, "bin/server.mjs")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: dbUrl,
      SWITCHBOARD_DATA_DIR: path.join(dir, "data"),
      SWITCHBOARD_RUNNER_WORK_DIR: path.join(dir, "work"),
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: url,
      NODE_ENV: "production",
      LOG_LEVEL: "error",
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-bench-standin",
      SWITCHBOARD_IDLE_NUDGE_S: "3600",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (server.exitCode !== null || i > 600) throw new Error("the server did not start");
    await sleep(100);
  }
  return {
    url,
    server,
    dir,
    dbUrl,
    stop: async () => {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      const t = setTimeout(() => server.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(t);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** lib/domain in this process on the hub's database (setup and reads; lib/env reads it once). */
async function domain(dbUrl: string, dir: string) {
  process.env.DATABASE_URL = dbUrl;
  process.env.SWITCHBOARD_DATA_DIR = path.join(dir, "data");
  process.env.LOG_LEVEL = "error";
  return {
    db: await import("../lib/db"),
    owners: await import("../lib/domain/owners/create-owner"),
    tokens: await import("../lib/domain/tokens/tokens"),
    agents: await import("../lib/domain/agents/agents"),
    runnerTokens: await import("../lib/domain/runner/tokens"),
  };
}

async function ownerToken(d: Awaited<ReturnType<typeof domain>>): Promise<string> {
  const u = await d.owners.createOwner({ email: "bench@example.com", password: "bench-password" });
  return (await d.tokens.createToken(u.id, { name: "bench" })).token;
}

async function createGoal(hub: Hub, token: string, title: string) {
  const r = await fetch(`${hub.url}/api/goals`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title, description: "A benchmark goal." }),
  });
  if (r.status !== 201) throw new Error(`create goal: ${r.status} ${await r.text()}`);
  return (await r.json()) as { goal_id: number; coordinator_agent_id: number };
}

async function goalEvents(hub: Hub, token: string, goalId: number) {
  const r = await fetch(`${hub.url}/api/goals/${goalId}/events?limit=1000`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as { events: { event: string; ts: string; agent_id: number | null }[] }).events;
}

async function mcp(url: string, key: string): Promise<Client> {
  const c = new Client({ name: "bench", version: "1.0.0" });
  await c.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return c;
}

/** A runner process (bin/runner.mjs) for `hub`, its agents talking to the stand-in. */
function spawnRunner(hub: Hub, model: ModelServer, runnerToken: string, maxAgents: number): ChildProcess {
  return spawn(
    process.execPath,
    [path.join(ROOT, "bin/runner.mjs"), "--name", "bench", "--max-agents", String(maxAgents)],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        LOG_LEVEL: "error",
        SWITCHBOARD_RUNNER_HUB: hub.url,
        SWITCHBOARD_RUNNER_TOKEN: runnerToken,
        SWITCHBOARD_RUNNER_WORK_DIR: path.join(hub.dir, "work"),
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "sk-bench-standin",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

async function latency() {
  const model = await startModelServer({ script: benchScript(true) });
  // --standalone-runner: a runner process beside the hub instead of the one embedded in the server's process.
  const standalone = process.argv.includes("--standalone-runner");
  const hub = await startHub(model, {
    SWITCHBOARD_RUNNER_MAX_AGENTS: String(GOALS + 4),
    ...(standalone ? { SWITCHBOARD_EMBEDDED_RUNNER: "0" } : {}),
  });
  const d = await domain(hub.dbUrl, hub.dir);
  const token = await ownerToken(d);
  const runner = standalone
    ? spawnRunner(hub, model, (await d.runnerTokens.createRunnerToken({ name: "bench" })).token, GOALS + 4)
    : undefined;
  const firstCall: number[] = [];
  const toStarted: number[] = [];
  const toModel: number[] = [];
  const modelToTool: number[] = [];
  const turnStart: number[] = [];
  const toHandedOut: number[] = [];
  const handedOutToTurn: number[] = [];
  const clients: Client[] = [];
  log(`latency: ${GOALS} goals (+1 warm-up), ${MESSAGES} messages each; load ${load()}`);
  for (let k = 0; k <= GOALS; k++) {
    const title = `bench-${k}-${Math.random().toString(36).slice(2, 8)}`;
    let tModel = 0;
    const firstReq = model
      .waitForRequest((r) => r.lastUserText.includes(title), 120_000)
      .then(() => {
        tModel = Date.now();
      });
    const t0 = Date.now();
    const g = await createGoal(hub, token, title);
    await firstReq;
    // The stand-in ends the turn after the plan's result: wait for that request (the call is on the hub).
    await model.waitForRequest(
      (r) => r.system.includes(`(#${g.coordinator_agent_id})`) && r.toolResults.length > 0,
      60_000,
    );
    const evs = await goalEvents(hub, token, g.goal_id);
    const planned = evs.find((e) => e.event === "plan_declared");
    const started = evs.find((e) => e.event === "agent_started" && e.agent_id === g.coordinator_agent_id);
    const tTool = planned ? Date.parse(planned.ts) : NaN;
    const tStarted = started ? Date.parse(started.ts) : NaN;
    if (k > 0) {
      firstCall.push(tTool - t0);
      toStarted.push(tStarted - t0);
      toModel.push(tModel - tStarted);
      modelToTool.push(tTool - tModel);
    }
    log(
      `  goal ${k}${k === 0 ? " (warm-up)" : ""} (load ${load()}): first tool call ${tTool - t0} ms (launched ${tStarted - t0}, model request +${tModel - tStarted}, tool +${tTool - tModel})`,
    );

    // (b) a teammate messages the idle coordinator; the turn starts when the stand-in gets the request.
    const mate = await d.agents.registerAgent({ goalId: g.goal_id, name: `mate-${k}`, role: "engineer" });
    const c = await mcp(hub.url, mate.api_key);
    clients.push(c);
    await sleep(500); // the first turn's end reaches the session
    for (let j = 0; j < MESSAGES; j++) {
      const marker = `PING-${k}-${j}-${Math.random().toString(36).slice(2, 8)}`;
      let tTurn = 0;
      const seen = model
        .waitForRequest((r) => r.lastUserText.includes(marker), 60_000)
        .then(() => {
          tTurn = Date.now();
        });
      const s0 = Date.now();
      const res = await c.callTool({
        name: "send_message",
        arguments: { to: String(g.coordinator_agent_id), content: marker },
      });
      if (res.isError) throw new Error(`send_message: ${JSON.stringify(res.content)}`);
      await seen;
      const uid = (res.structuredContent as { message_id: string }).message_id;
      const msg = await d.db.read(({ db }) =>
        db.message.findUnique({ where: { uid }, select: { deliveredAt: true } }),
      );
      const tOut = msg?.deliveredAt?.getTime() ?? NaN;
      if (k > 0) {
        turnStart.push(tTurn - s0);
        toHandedOut.push(tOut - s0);
        handedOutToTurn.push(tTurn - tOut);
      }
      await sleep(300); // the turn ends (the stand-in answers at once) before the next message
    }
    // Stop this goal's coordinator (it goes at its next lease renewal) so the goals do not pile up.
    await fetch(`${hub.url}/api/goals/${g.goal_id}/pause`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
  }
  log(`  message → turn start, per message (ms): ${turnStart.join(" ")}`);
  await Promise.allSettled(clients.map((c) => c.close()));
  if (runner) {
    const exited = new Promise((r) => runner.once("exit", r));
    runner.kill("SIGTERM");
    await exited;
  }
  await d.db.disconnect();
  await hub.stop();
  await model.close();
  return {
    runner: standalone ? "standalone process" : "embedded in the server",
    goal_to_first_tool_call_ms: stats(firstCall),
    goal_to_launched_ms: stats(toStarted),
    launched_to_first_model_request_ms: stats(toModel),
    first_model_request_to_tool_call_ms: stats(modelToTool),
    message_to_turn_start_ms: stats(turnStart),
    message_to_handed_out_ms: stats(toHandedOut),
    handed_out_to_turn_start_ms: stats(handedOutToTurn),
  };
}

/** Every process under `root` (itself included), from /proc. */
function tree(root: number): number[] {
  const kids = new Map<number, number[]>();
  for (const p of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(p)]);
    } catch {}
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const k of kids.get(p) ?? []) walk(k);
  };
  walk(root);
  return out;
}

const kb = (file: string, key: string) => {
  try {
    return Number(fs.readFileSync(file, "utf8").match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
/** utime + stime of a process, in clock ticks (100 a second). */
const ticks = (pid: number) => {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};

function memory(root: number) {
  const pids = tree(root);
  const children = pids.filter((p) => p !== root);
  const sum = (ps: number[], f: string, k: string) => ps.reduce((a, p) => a + kb(`/proc/${p}/${f}`, k), 0);
  return {
    processes: pids.length,
    runner_rss_mb: kb(`/proc/${root}/status`, "VmRSS") / 1024,
    children_rss_mb: sum(children, "status", "VmRSS") / 1024,
    runner_pss_mb: kb(`/proc/${root}/smaps_rollup`, "Pss") / 1024,
    children_pss_mb: sum(children, "smaps_rollup", "Pss") / 1024,
    children,
  };
}

async function idle() {
  const model = await startModelServer({ script: benchScript(false) });
  const hub = await startHub(model, { SWITCHBOARD_EMBEDDED_RUNNER: "0" });
  const d = await domain(hub.dbUrl, hub.dir);
  const token = await ownerToken(d);
  const { token: runnerToken } = await d.runnerTokens.createRunnerToken({ name: "bench" });
  const runner = spawnRunner(hub, model, runnerToken, AGENTS);
  const pid = runner.pid as number;
  await sleep(5000);
  const base = memory(pid);
  const t0 = ticks(pid);
  await sleep(10_000);
  const baseCpu = (ticks(pid) - t0) / 100 / 10;
  log(
    `idle: runner alone ${base.runner_rss_mb.toFixed(0)} MB RSS, ${(baseCpu * 100).toFixed(2)} % CPU; load ${load()}`,
  );

  let launched = 0;
  let stoppedEarly: string | undefined;
  const startedAt = Date.now();
  while (launched < AGENTS) {
    if (memAvailableMb() < MIN_FREE_MB) {
      stoppedEarly = `MemAvailable fell under ${MIN_FREE_MB} MB after ${launched} agents`;
      log(`  ${stoppedEarly}: measuring those`);
      break;
    }
    const batch = Math.min(10, AGENTS - launched);
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < batch; i++) {
      const title = `idle-${launched + i}-${Math.random().toString(36).slice(2, 8)}`;
      waits.push(model.waitForRequest((r) => r.lastUserText.includes(title), 300_000));
      await createGoal(hub, token, title);
    }
    await Promise.all(waits);
    launched += batch;
    log(
      `  ${launched} agents had their first turn (${((Date.now() - startedAt) / 1000).toFixed(0)} s), load ${load()}`,
    );
  }
  await sleep(10_000); // first turns end; sessions settle
  const loadBefore = load();
  const m0 = memory(pid);
  const r0 = ticks(pid);
  const c0 = m0.children.reduce((a, p) => a + ticks(p), 0);
  const requests0 = model.requests.length;
  await sleep(IDLE_S * 1000);
  const m1 = memory(pid);
  const r1 = ticks(pid);
  const c1 = m0.children.reduce((a, p) => a + ticks(p), 0);
  const n = launched;
  const out = {
    agents: n,
    stopped_early: stoppedEarly ?? null,
    processes_under_runner: m1.processes - 1,
    runner_alone_rss_mb: Math.round(base.runner_rss_mb),
    runner_alone_cpu_pct: Number((baseCpu * 100).toFixed(2)),
    runner_rss_mb: Math.round(m1.runner_rss_mb),
    runner_pss_mb: Math.round(m1.runner_pss_mb),
    children_rss_mb: Math.round(m1.children_rss_mb),
    children_pss_mb: Math.round(m1.children_pss_mb),
    rss_per_agent_mb: Number(((m1.runner_rss_mb - base.runner_rss_mb + m1.children_rss_mb) / n).toFixed(1)),
    pss_per_agent_mb: Number(((m1.runner_pss_mb - base.runner_pss_mb + m1.children_pss_mb) / n).toFixed(1)),
    runner_idle_cpu_pct: Number((((r1 - r0) / 100 / IDLE_S) * 100).toFixed(2)),
    children_idle_cpu_pct_total: Number((((c1 - c0) / 100 / IDLE_S) * 100).toFixed(2)),
    model_requests_while_idle: model.requests.length - requests0,
    idle_window_s: IDLE_S,
    load_before: loadBefore,
    load_after: load(),
  };
  const exited = new Promise((r) => runner.once("exit", r));
  runner.kill("SIGTERM");
  const t = setTimeout(() => runner.kill("SIGKILL"), 60_000);
  await exited;
  clearTimeout(t);
  await d.db.disconnect();
  await hub.stop();
  await model.close();
  return out;
}

/**
 * (b) without the hub and the feeder: one claude-code session started through the runtime in this process
 * (its MCP server points nowhere: the hub plays no part), each `deliver()` timed to the stand-in receiving
 * the request it causes. What is left of (b) after this and the hub's hand-out is the runner's feeder.
 */
async function session() {
  const { claudeCodeRuntime } = await import("../lib/runner/runtimes/claude-code");
  const model = await startModelServer({ script: () => ({ text: "ok" }) });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "sb-bench-session-"));
  const rt = claudeCodeRuntime({
    baseEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-bench",
    },
  });
  const s = await rt.start({
    agentId: 1,
    goalId: 1,
    name: "bench",
    role: "engineer",
    mcpUrl: "http://127.0.0.1:9/mcp",
    apiKey: "none",
    systemPrompt: "A benchmark session.",
    workspace,
    env: {},
  });
  let ends = 0;
  const drained = (async () => {
    for await (const e of s.events) if (e.type === "turn.end") ends++;
  })();
  const untilEnds = async (n: number) => {
    while (ends < n) await sleep(5);
  };
  const times: number[] = [];
  for (let j = 0; j <= MESSAGES * 4; j++) {
    const marker = `S-${j}-${Math.random().toString(36).slice(2, 8)}`;
    let t1 = 0;
    const seen = model
      .waitForRequest((r) => r.lastUserText.includes(marker), 60_000)
      .then(() => {
        t1 = Date.now();
      });
    const t0 = Date.now();
    await s.deliver(marker);
    await seen;
    await untilEnds(j + 1);
    if (j > 0) times.push(t1 - t0); // the first turn also starts the process
    await sleep(100);
  }
  log(`session: deliver → model request (ms): ${times.join(" ")}; load ${load()}`);
  await s.stop();
  await drained;
  await model.close();
  fs.rmSync(workspace, { recursive: true, force: true });
  return { deliver_to_model_request_ms: stats(times) };
}

/**
 * (b)'s feeder part: the runner's inbox feeder (lib/runner/inbox-feeder.ts) in this process, reading a
 * registered agent's inbox over the hub's /mcp, with a session that only timestamps each delivery. A
 * teammate sends; measured: send → handed out by the hub (Message.deliveredAt) → deliver() called.
 */
async function feeder() {
  const { feedInbox } = await import("../lib/runner/inbox-feeder");
  const model = await startModelServer();
  const hub = await startHub(model, { SWITCHBOARD_EMBEDDED_RUNNER: "0" });
  const d = await domain(hub.dbUrl, hub.dir);
  const token = await ownerToken(d);
  const g = await createGoal(hub, token, "feeder bench");
  const fed = await d.agents.registerAgent({ goalId: g.goal_id, name: "fed", role: "engineer" });
  const mate = await d.agents.registerAgent({ goalId: g.goal_id, name: "mate", role: "engineer" });
  const c = await mcp(hub.url, mate.api_key);
  const delivered = new Map<string, number>();
  const stop = new AbortController();
  const feeding = feedInbox(
    {
      mcpUrl: `${hub.url}/mcp`,
      apiKey: fed.api_key,
      log: {},
      session: {
        fedByRunner: true,
        deliver: async (text) => {
          const m = text.match(/F-\d+-\w+/)?.[0];
          if (m) delivered.set(m, Date.now());
          return { done: Promise.resolve() };
        },
        stop: async () => {},
        kill: () => {},
        events: (async function* () {})(),
      },
    },
    stop.signal,
  );
  await sleep(1000);
  const total: number[] = [];
  const hubPart: number[] = [];
  const feederPart: number[] = [];
  for (let j = 0; j < MESSAGES * 10; j++) {
    const marker = `F-${j}-${Math.random().toString(36).slice(2, 8)}`;
    const t0 = Date.now();
    const res = await c.callTool({
      name: "send_message",
      arguments: { to: String(fed.agent_id), content: marker },
    });
    while (!delivered.has(marker)) await sleep(1);
    const t1 = delivered.get(marker) as number;
    const uid = (res.structuredContent as { message_id: string }).message_id;
    const msg = await d.db.read(({ db }) =>
      db.message.findUnique({ where: { uid }, select: { deliveredAt: true } }),
    );
    const tOut = msg?.deliveredAt?.getTime() ?? NaN;
    total.push(t1 - t0);
    hubPart.push(tOut - t0);
    feederPart.push(t1 - tOut);
    await sleep(100);
  }
  stop.abort();
  await feeding;
  await c.close();
  await d.db.disconnect();
  await hub.stop();
  await model.close();
  return {
    send_to_deliver_ms: stats(total),
    send_to_handed_out_ms: stats(hubPart),
    handed_out_to_deliver_ms: stats(feederPart),
  };
}

/** One phase per process: lib/env (and so lib/db) reads DATABASE_URL once, and each phase has its own hub. */
function phaseInChild(phase: string): unknown {
  const rest = process.argv.slice(2).filter((a, i, all) => a !== "--phases" && all[i - 1] !== "--phases");
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1] ?? "", ...rest, "--phases", phase],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`phase ${phase} failed (exit ${r.status})`);
  return (JSON.parse(r.stdout) as Record<string, unknown>)[phase];
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  load_at_start: load(),
};
for (const phase of phases) {
  if (phases.length > 1) results[phase] = phaseInChild(phase);
  else if (phase === "latency") results.latency = await latency();
  else if (phase === "idle") results.idle = await idle();
  else if (phase === "session") results.session = await session();
  else if (phase === "feeder") results.feeder = await feeder();
  else throw new Error(`unknown phase ${phase}`);
}
results.load_at_end = load();
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
process.exit(0);
