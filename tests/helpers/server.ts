import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";

/**
 * Test harness: the real production server (`bin/server.mjs`: Next's build in .next plus the /mcp fast path) on a free port, with its own
 * database: a fresh SQLite file, or a fresh PostgreSQL database when `TEST_DATABASE=postgres`.
 * Run `npm run build` first (the test script does).
 */
export const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type Provider = "sqlite" | "postgres";

export const providerUnderTest = (): Provider =>
  process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** A fresh, empty database URL for this provider, and how to throw it away. */
export async function freshDatabase(
  provider: Provider,
): Promise<{ url: string; dir: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-test-"));
  if (provider === "sqlite") {
    return {
      url: `file:${path.join(dir, "switchboard.db")}`,
      dir,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `sb_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dir,
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What tool tests need from a deployment, over HTTP (`startServer`) or in process (`startInProcess` in
 * ./in-process.ts): credentials, connected clients, agents, REST requests.
 */
export type Surface = {
  env: NodeJS.ProcessEnv;
  /** Owner token for `email` (creates the owner on first use). */
  ownerToken(email?: string): Promise<string>;
  /** A connected real SDK client for a bearer secret (agent API key or owner token). */
  client(secret: string): Promise<Client>;
  /** `switchboard agent create`: registers an agent (default leader: the goal's coordinator). */
  createAgent(o: { goal: number; name: string; role?: string; leader?: number | string }): Promise<{
    agent_id: number;
    api_key: string;
  }>;
  /** `switchboard agent key`: a new API key for the agent. */
  agentKey(agentId: number | string): Promise<string>;
  /** A REST request; `url` is a path like `/api/goals`. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
};

export type TestServer = Surface & {
  url: string;
  /** Run the CLI against this server's database; resolves with stdout (trimmed). */
  cli(...args: string[]): Promise<string>;
  /** Kill and restart the server process on the same database (crash tests); also starts a stopped one. */
  restart(): Promise<void>;
  /** Send SIGTERM (graceful shutdown) and wait for the process to exit: its exit code and how long it took. */
  sigterm(): Promise<{ code: number | null; ms: number }>;
};

type Domain = {
  createOwner: typeof import("@/lib/domain/owners/create-owner").createOwner;
  findOwnerByEmail: typeof import("@/lib/domain/owners/create-owner").findOwnerByEmail;
  createToken: typeof import("@/lib/domain/tokens/tokens").createToken;
  registerAgent: typeof import("@/lib/domain/agents/agents").registerAgent;
  issueAgentKey: typeof import("@/lib/domain/agents/agents").issueAgentKey;
};

/**
 * lib/domain opened in this test process on `databaseUrl`, for setup (owners, tokens, agents, keys) without
 * spawning the CLI (1–3 s a command). Undefined when this process already uses another database (lib/env
 * caches the first one): callers then fall back to the CLI.
 */
export async function domainOn(databaseUrl: string, dataDir?: string): Promise<Domain | undefined> {
  if (process.env.DATABASE_URL && process.env.DATABASE_URL !== databaseUrl) return undefined;
  // Playwright's workers load TypeScript their own way, which the generated Prisma client may not survive.
  if (process.env.TEST_WORKER_INDEX !== undefined) return undefined;
  let owners: typeof import("@/lib/domain/owners/create-owner");
  let tokens: typeof import("@/lib/domain/tokens/tokens");
  let agents: typeof import("@/lib/domain/agents/agents");
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  try {
    owners = await import("@/lib/domain/owners/create-owner");
    tokens = await import("@/lib/domain/tokens/tokens");
    agents = await import("@/lib/domain/agents/agents");
  } catch {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
    return undefined; // a loader that cannot import lib (Playwright's, perhaps): the CLI it is
  }
  if (dataDir) process.env.SWITCHBOARD_DATA_DIR ??= dataDir;
  return {
    createOwner: owners.createOwner,
    findOwnerByEmail: owners.findOwnerByEmail,
    createToken: tokens.createToken,
    registerAgent: agents.registerAgent,
    issueAgentKey: agents.issueAgentKey,
  };
}

/** Owner token for `email` through lib/domain (creates the owner on first use), as the CLI does. */
export async function domainOwnerToken(d: Domain, email: string): Promise<string> {
  const user =
    (await d.findOwnerByEmail(email)) ?? (await d.createOwner({ email, password: "correct-horse-battery" }));
  return (await d.createToken(user.id, { name: "cli" })).token;
}

const run = promisify(execFile);

export async function startServer(
  opts: { provider?: Provider; env?: Record<string, string>; shareDatabaseWith?: TestServer } = {},
): Promise<TestServer> {
  const shared = opts.shareDatabaseWith;
  const db = shared
    ? {
        url: shared.env.DATABASE_URL ?? "",
        dir: fs.mkdtempSync(path.join(os.tmpdir(), "sb-test-")),
        drop: async () => {},
      }
    : await freshDatabase(opts.provider ?? providerUnderTest());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    SWITCHBOARD_DATA_DIR: shared?.env.SWITCHBOARD_DATA_DIR ?? path.join(db.dir, "data"),
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    // issue 11: no embedded runner unless a test asks for one (it would launch the goals' coordinators).
    SWITCHBOARD_EMBEDDED_RUNNER: "0",
    ...opts.env,
  };
  let child: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}`;
  const boot = async () => {
    child = spawn(process.execPath, [path.join(ROOT, "bin/server.mjs")], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d) => {
      stderr += String(d);
      if (process.env.TEST_SERVER_LOG) process.stderr.write(d);
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const r = await fetch(`${url}/api/health`);
        if (r.ok) return;
      } catch {}
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`server did not start: ${stderr.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child?.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  await boot();
  const tokens = new Map<string, string>();
  // Setup goes through lib/domain in this process when it can (see domainOn); the CLI otherwise.
  const domain = () => domainOn(db.url, env.SWITCHBOARD_DATA_DIR);
  let opened = false;
  const server: TestServer = {
    url,
    env,
    cli: async (...args) =>
      (
        await run(process.execPath, [path.join(ROOT, "bin/switchboard.mjs"), ...args], { cwd: ROOT, env })
      ).stdout.trim(),
    ownerToken: async (email = "owner@example.com") => {
      let t = tokens.get(email);
      if (!t) {
        const d = await domain();
        if (d) {
          opened = true;
          t = await domainOwnerToken(d, email);
        } else {
          await server.cli("owner", "create", "--email", email, "--password", "correct-horse-battery");
          t = await server.cli("token", "create", "--email", email);
        }
        tokens.set(email, t);
      }
      return t;
    },
    client: (secret) => mcpClient(url, secret),
    createAgent: async (o) => {
      const d = await domain();
      if (d) {
        opened = true;
        const leaderId = o.leader === undefined ? undefined : Number(o.leader);
        return d.registerAgent({ goalId: o.goal, name: o.name, role: o.role ?? "agent", leaderId });
      }
      const args = ["agent", "create", "--goal", String(o.goal), "--name", o.name];
      if (o.role) args.push("--role", o.role);
      if (o.leader !== undefined) args.push("--leader", String(o.leader));
      return JSON.parse(await server.cli(...args)) as { agent_id: number; api_key: string };
    },
    agentKey: async (id) => {
      const d = await domain();
      if (!d) return server.cli("agent", "key", String(id));
      opened = true;
      return (await d.issueAgentKey(Number(id))).api_key;
    },
    fetch: (path, init) => fetch(new URL(path, url), init),
    stop: async () => {
      await kill();
      // This process's own connection to the database (setup above) goes before the database does.
      if (opened && !shared) await (await import("@/lib/db")).disconnect();
      await db.drop();
    },
    restart: async () => {
      await kill();
      await boot();
    },
    sigterm: async () => {
      const started = Date.now();
      if (!child || child.exitCode !== null) return { code: child?.exitCode ?? null, ms: 0 };
      const proc = child;
      const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
      proc.kill("SIGTERM");
      return { code: await exited, ms: Date.now() - started };
    },
  };
  return server;
}

/** A real MCP SDK client over Streamable HTTP with a Bearer credential. */
export async function mcpClient(url: string, secret: string): Promise<Client> {
  const client = new Client({ name: "switchboard-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", url), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

/** A goal with a coordinator and `n` registered agents, each with its own connected client. */
export async function goalWithAgents(server: Surface, n: number, email?: string) {
  const token = await server.ownerToken(email);
  const owner = await server.client(token);
  const res = await owner.callTool({
    name: "create_goal",
    arguments: {
      title: `Goal ${Math.random().toString(36).slice(2, 8)}`,
      description: "A goal created by a test.",
    },
  });
  const goal = res.structuredContent as {
    goal_id: number;
    slug: string;
    channel_id: number;
    coordinator_agent_id: number;
  };
  const coordinatorKey = await server.agentKey(goal.coordinator_agent_id);
  const agents = [
    {
      id: String(goal.coordinator_agent_id),
      key: coordinatorKey,
      client: await server.client(coordinatorKey),
    },
  ];
  for (let i = 0; i < n; i++) {
    const { agent_id, api_key } = await server.createAgent({
      goal: goal.goal_id,
      name: `agent-${i}`,
      role: "engineer",
    });
    agents.push({ id: String(agent_id), key: api_key, client: await server.client(api_key) });
  }
  return { goal, owner, token, agents };
}

/** structuredContent of a tool result, typed loosely for assertions. */
export function sc<T = Record<string, unknown>>(r: unknown): T {
  return (r as { structuredContent: T }).structuredContent;
}

/** The error code of an isError result (undefined for a success). */
export function errorCode(r: unknown): string | undefined {
  const res = r as { isError?: boolean; structuredContent?: { error?: { code?: string } } };
  return res.isError ? res.structuredContent?.error?.code : undefined;
}
