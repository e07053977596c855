// The start of `npm run demo` (issue 11 §5; the command itself is scripts/demo.mts): the stand-in model
// server (./model-server.ts) playing the scripted team of ./demo-team.ts, the production server
// (bin/server.mjs, with its embedded runner) on a fresh SQLite database, a demo owner and a first goal. The
// agents are real Claude Code sessions (the Agent SDK); only the model's replies are scripted.
// tests/integration/demo.test.ts runs it end to end; docs/runner.md "The demo" describes it.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { demoTeamScript } from "./demo-team";
import { type ModelServer, startModelServer } from "./model-server";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "switchboard-demo";
export const DEMO_GOAL = {
  title: "Write up the state of our docs",
  description:
    "Find out what our documentation covers and where it is thin, and draft an outline for a write-up. " +
    "(Demo: the model's replies are scripted by lib/standin/demo-team.ts.)",
};

export type Demo = {
  /** The hub's origin, e.g. http://127.0.0.1:3000. */
  url: string;
  goalId: number;
  goalUrl: string;
  /** The demo owner's personal token (REST and MCP), for scripts and the test. */
  ownerToken: string;
  /** Where the database, the hub's data and the agents' workspaces are (wiped at each start). */
  dir: string;
  model: ModelServer;
  server: ChildProcess;
  stop(): Promise<void>;
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** The environment the hub gets: the operator's, minus any model credential or Claude configuration. */
function hubEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|CLAUDE_|SWITCHBOARD_|DATABASE_URL$|NEXTAUTH_|PORT$|HOSTNAME$)/.test(k)) continue;
    out[k] = v;
  }
  return { ...out, ...extra } as NodeJS.ProcessEnv;
}

/**
 * Creates the demo owner and a personal token on the fresh database: through lib/domain in this process, or
 * through the CLI where lib cannot be loaded here (Playwright's workers load TypeScript their own way).
 */
async function setupOwner(databaseUrl: string, dataDir: string): Promise<string> {
  if (process.env.TEST_WORKER_INDEX === undefined) {
    process.env.DATABASE_URL = databaseUrl;
    process.env.SWITCHBOARD_DATA_DIR = dataDir;
    process.env.LOG_LEVEL = "error";
    const { createOwner } = await import("@/lib/domain/owners/create-owner");
    const { createToken } = await import("@/lib/domain/tokens/tokens");
    const db = await import("@/lib/db");
    try {
      const user = await createOwner({ email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo owner" });
      return (await createToken(user.id, { name: "demo" })).token;
    } finally {
      await db.disconnect();
    }
  }
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(ROOT, "bin/switchboard.mjs"), ...args], {
      cwd: ROOT,
      env: hubEnv({ DATABASE_URL: databaseUrl, SWITCHBOARD_DATA_DIR: dataDir, LOG_LEVEL: "error" }),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  cli("owner", "create", "--email", DEMO_EMAIL, "--password", DEMO_PASSWORD, "--name", "Demo owner");
  return cli("token", "create", "--email", DEMO_EMAIL, "--name", "demo");
}

/**
 * Starts the demo: stand-in model, hub + embedded runner on a fresh SQLite database in `dir`, the demo
 * owner, and the demo goal (whose coordinator the runner launches at once).
 */
export async function startDemo(
  o: { port?: number; dir?: string; serverLog?: boolean; env?: Record<string, string> } = {},
): Promise<Demo> {
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    throw new Error("no build: run `npm run build` first (npm run demo does it for you)");
  const dir = path.resolve(o.dir ?? path.join(ROOT, ".demo"));
  // A second demo on the same directory would wipe the database of the one running.
  const pidFile = path.join(dir, "demo.pid");
  const other = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8")) : 0;
  if (other && other !== process.pid && alive(other))
    throw new Error(`another demo (pid ${other}) is running on ${dir}: stop it first (Ctrl-C)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(pidFile, String(process.pid));
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseUrl = `file:${path.join(dataDir, "switchboard.db")}`;

  const model = await startModelServer({ script: demoTeamScript });
  const ownerToken = await setupOwner(databaseUrl, dataDir);
  const port = o.port || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(ROOT, "bin/server.mjs")], {
    cwd: ROOT,
    env: hubEnv({
      DATABASE_URL: databaseUrl,
      SWITCHBOARD_DATA_DIR: dataDir,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: url,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      // Claude Code talks to the stand-in: no key, no network.
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-demo-standin",
      SWITCHBOARD_EMBEDDED_RUNNER: "1",
      // Room for a few goals at once (each team is 3 Claude Code processes, ~175 MB each).
      SWITCHBOARD_RUNNER_MAX_AGENTS: "12",
      SWITCHBOARD_RUNNER_WORK_DIR: path.join(dir, "runner-work"),
      // A short lease: an agent that consumed its terminate notice is stopped within ~2 s.
      SWITCHBOARD_RUNNER_LEASE_S: "6",
      // The researcher waits on the owner as long as the owner likes: no idle nudges meanwhile.
      SWITCHBOARD_IDLE_NUDGE_S: "3600",
      ...o.env,
    }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr?.on("data", (d) => {
    stderr = (stderr + String(d)).slice(-8000);
    if (o.serverLog) process.stderr.write(d);
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      const timer = setTimeout(() => server.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await model.close();
    fs.rmSync(pidFile, { force: true });
  };
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (server.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`the server did not start within 90 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const res = await fetch(`${url}/api/goals`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify(DEMO_GOAL),
    });
    if (res.status !== 201) throw new Error(`creating the demo goal: ${res.status} ${await res.text()}`);
    const { goal_id } = (await res.json()) as { goal_id: number };
    return { url, goalId: goal_id, goalUrl: `${url}/goals/${goal_id}`, ownerToken, dir, model, server, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
