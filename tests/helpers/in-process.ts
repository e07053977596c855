import fs from "node:fs";
import { createRequire, register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import {
  domainOn,
  domainOwnerToken,
  freshDatabase,
  type Provider,
  providerUnderTest,
  ROOT,
  type Surface,
} from "./server";

/**
 * In-process test harness: no production build, no spawned server. The test process opens lib/db on a
 * fresh database (SQLite temp file, or a fresh PostgreSQL database when `TEST_DATABASE=postgres`) and
 * connects real SDK `Client`s to `buildServer(caller)` — the builder the /mcp endpoint uses — through the
 * SDK's in-memory transport. Like the stateless HTTP endpoint, every request authenticates its credential
 * afresh and is served by a fresh server. REST calls go to the app's route handlers (app/api/…/route.ts)
 * called directly. Owners, tokens, agents and keys are made through lib/domain, as the CLI does.
 *
 * lib/env caches the environment on first use, so one harness per test process (node --test runs each
 * file in its own process): call `startInProcess` once, in `before`.
 */
export type InProcess = Surface & { provider: Provider };

let started = false;

export async function startInProcess(
  opts: { provider?: Provider; env?: Record<string, string>; watchdog?: boolean } = {},
): Promise<InProcess> {
  if (started) throw new Error("one in-process harness per test process (lib/env caches the environment)");
  started = true;
  const provider = opts.provider ?? providerUnderTest();
  const db = await freshDatabase(provider);
  // Before anything imports lib: lib/env and lib/jobs/config read process.env once.
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    SWITCHBOARD_DATA_DIR: path.join(db.dir, "data"),
    SWITCHBOARD_WATCHDOG: opts.watchdog ? "1" : "0",
    LOG_LEVEL: "warn",
    ...opts.env,
  });
  interopNextAuthDefault();
  const { authenticateBearer } = await import("@/lib/auth/caller");
  const { buildServer } = await import("@/lib/mcp/server");
  const { seedBuiltinSkills } = await import("@/lib/domain/skills/skills");
  const domain = await domainOn(db.url);
  if (!domain) throw new Error("this process already uses another database");
  const { registerAgent, issueAgentKey } = domain;
  const lib = await import("@/lib/db");
  await seedBuiltinSkills();
  if (opts.watchdog) (await import("@/lib/jobs/watchdog")).startWatchdog();

  const clients: Client[] = [];
  const tokens = new Map<string, string>();
  const routes = routeTable();

  const h: InProcess = {
    provider,
    env: process.env,
    client: async (secret) => {
      const client = new Client({ name: "switchboard-test", version: "1.0.0" });
      await client.connect(
        new StatelessTransport(async () => {
          const caller = await authenticateBearer(secret);
          if (!caller) throw new Error("401 unauthorized: a valid agent API key or owner token is required");
          return buildServer(caller);
        }),
      );
      clients.push(client);
      return client;
    },
    ownerToken: async (email = "owner@example.com") => {
      let t = tokens.get(email);
      if (!t) {
        t = await domainOwnerToken(domain, email);
        tokens.set(email, t);
      }
      return t;
    },
    createAgent: (o) =>
      registerAgent({
        goalId: o.goal,
        name: o.name,
        role: o.role ?? "agent",
        leaderId: o.leader === undefined ? undefined : Number(o.leader),
      }),
    agentKey: async (id) => (await issueAgentKey(Number(id))).api_key,
    fetch: async (url, init) => {
      const u = new URL(url, "http://127.0.0.1");
      const route = routes.find((r) => r.pattern.test(u.pathname));
      if (!route) return Response.json({ error: { code: "not_found" } }, { status: 404 });
      const params = u.pathname.match(route.pattern)?.groups ?? {};
      const mod = (await import(route.file)) as Record<
        string,
        (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
      >;
      const method = (init?.method ?? "GET").toUpperCase();
      const handler = mod[method];
      if (!handler) return new Response(null, { status: 405 });
      return handler(new Request(u, init), { params: Promise.resolve({ ...params }) });
    },
    stop: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      const g = globalThis as { __switchboardWatchdog?: { stop(): void } };
      g.__switchboardWatchdog?.stop();
      g.__switchboardWatchdog = undefined;
      await lib.disconnect();
      // The PostgreSQL LISTEN connection of lib/bus (opened by the first waiter) holds the process open.
      const bus = (
        globalThis as { __switchboardBus?: { listener?: Promise<{ end(): Promise<void> } | undefined> } }
      ).__switchboardBus;
      const listener = await bus?.listener;
      if (bus) bus.listener = undefined;
      await listener?.end().catch(() => {});
      await db.drop();
    },
  };
  return h;
}

/**
 * `import CredentialsProvider from "next-auth/providers/credentials"` (lib/auth/next-auth.ts, reached by the
 * REST routes) is a CommonJS module with `exports.default`: Next's bundler unwraps it, Node's loader (under
 * tsx) does not. A resolve hook sends that one specifier to a two-line module that does.
 */
function interopNextAuthDefault() {
  const real = pathToFileURL(createRequire(import.meta.url).resolve("next-auth/providers/credentials")).href;
  const shim = `data:text/javascript,${encodeURIComponent(
    `import m from ${JSON.stringify(real)}; export default m.default ?? m;`,
  )}`;
  const hooks = `export async function resolve(specifier, context, next) {
    if (specifier === "next-auth/providers/credentials") return { url: ${JSON.stringify(shim)}, shortCircuit: true };
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** app/api/**\/route.ts as path patterns, static segments before dynamic ones. */
function routeTable(): { pattern: RegExp; file: string; rank: number }[] {
  const out: { pattern: RegExp; file: string; rank: number }[] = [];
  const walk = (dir: string, segs: string[]) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), [...segs, e.name]);
      else if (e.name === "route.ts") {
        if (segs.some((s) => s.startsWith("[..."))) continue;
        const re = segs.map((s) => (s.startsWith("[") ? `(?<${s.slice(1, -1)}>[^/]+)` : s)).join("/");
        out.push({
          pattern: new RegExp(`^/${re}/?$`),
          file: path.join(dir, e.name),
          rank: segs.filter((s) => s.startsWith("[")).length,
        });
      }
    }
  };
  walk(path.join(ROOT, "app/api"), ["api"]);
  return out.sort((a, b) => a.rank - b.rank);
}

/**
 * The client side of a stateless endpoint in memory: each request gets a fresh server (from `serve`, which
 * authenticates like the HTTP endpoint) on its own linked pair; its progress notifications and its
 * response come back on this transport. A client's notifications/cancelled reaches the server handling
 * that request (over HTTP the connection closes, which aborts the call the same way).
 */
class StatelessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private open = new Map<RequestId, InMemoryTransport>();

  constructor(private serve: () => Promise<{ connect(t: Transport): Promise<void> }>) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if ("method" in message && "id" in message) {
      const server = await this.serve();
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const id = message.id;
      clientSide.onmessage = (m) => {
        this.onmessage?.(m);
        if (!("method" in m) && "id" in m && m.id === id) {
          this.open.delete(id);
          void clientSide.close();
        }
      };
      await server.connect(serverSide);
      await clientSide.start();
      this.open.set(id, clientSide);
      await clientSide.send(message);
      return;
    }
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const t = id === undefined ? undefined : this.open.get(id);
      await t?.send(message);
    }
    // Other notifications (initialized) and responses: a stateless endpoint has nothing to do with them.
  }

  async close(): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    await Promise.all(open.map((t) => t.close()));
    this.onclose?.();
  }
}

export { errorCode, goalWithAgents, sc } from "./server";
