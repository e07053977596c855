// The production server: one Node HTTP server that answers /mcp directly (the agents' hot path skips
// Next.js's request pipeline, about half of a call's CPU) and hands every other request to Next.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import nextEnv from "@next/env";
import next from "next";
import { PEER_HEADER, setupToken } from "@/lib/auth/setup-token";
import { drain } from "@/lib/bus";
import { disconnect } from "@/lib/db";
import { ownerCount } from "@/lib/domain/owners/create-owner";
import { checkSecretKeyAtStart } from "@/lib/domain/secrets/key-check";
import { seedBuiltinSkills } from "@/lib/domain/skills/skills";
import { priceTable } from "@/lib/domain/usage/prices";
import { dataDir, env } from "@/lib/env";
import { startNotifications } from "@/lib/jobs/notifications";
import { startWatchdog } from "@/lib/jobs/watchdog";
import { handleMcpRequest } from "@/lib/mcp/http";

// The .env files, loaded the way Next would load them in app.prepare() (it then finds them loaded), so
// that env() here, read once and cached, sees the same values as Next's own copy of lib/.
nextEnv.loadEnvConfig(process.cwd(), false);
const { PORT: port, HOSTNAME: hostname } = env();
// The data directory (database, session secret, secret key) is the server's alone: 0700, so that nothing the
// runner starts as another user (verification commands as `nobody`) can read inside it (issue 16 §1).
fs.mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
fs.chmodSync(dataDir(), 0o700);
// A broken price table stops the server here, with the file named (issue 12, docs/budgets.md).
priceTable();

/** The request body as text, or null once it exceeds `cap` bytes (the rest is drained unread). */
function readBody(req: http.IncomingMessage, cap: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > cap) {
      req.resume();
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > cap ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * /mcp: Node request → web Request (the body read here, so no web stream is built for it), web Response →
 * Node response. The request's signal aborts only when the client goes away before the reply is complete.
 */
async function serveMcp(req: http.IncomingMessage, res: http.ServerResponse) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else if (v !== undefined) headers.set(k, v);
  }
  const body = req.method === "POST" ? await readBody(req, env().SWITCHBOARD_MAX_BODY_BYTES) : undefined;
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
    method: req.method,
    headers,
    signal: controller.signal,
  });
  const response = await handleMcpRequest(request, body);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Replace a request header in both views Node keeps of them (Next reads `rawHeaders` in places). */
function setHeader(req: http.IncomingMessage, name: string, value: string) {
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() !== name)
      raw.push(req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? "");
  }
  raw.push(name, value);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  req.headers[name] = value;
}

const app = next({ dev: false, dir: process.cwd(), hostname, port });
await app.prepare();
// issue 14: the secret key, checked before the first request (migrations ran in app.prepare()): mode 0600,
// the server's own file, 32 bytes, and it must open the stored values; otherwise no start (docs/secrets.md).
await checkSecretKeyAtStart();
// Background jobs: built-in skills seeded, the watchdog loop (one active per deployment, by lease).
await seedBuiltinSkills();
startWatchdog();
startNotifications();
const nextHandler = app.getRequestHandler();

/**
 * Keep-alive (issue 16 §5, docs/development.md "Keep-alive"): an idle connection is held open for
 * KEEP_ALIVE_MS, but clients are told a shorter `Keep-Alive: timeout=` (KEEP_ALIVE_HINT_S), so that a client
 * which honours the hint (undici, i.e. Node's fetch and the MCP SDK's transport; node:http agents given a
 * `timeout`) closes an idle socket seconds before the server does, and never sends a call on a socket the
 * server is closing at that moment ("other side closed"). Node 20 announces `keepAliveTimeout` itself, so the
 * hint is written here for every HTTP/1.1 response Node keeps alive (Node then adds none of its own).
 */
const KEEP_ALIVE_MS = 65_000;
const KEEP_ALIVE_HINT_S = 60;

const server = http.createServer((req, res) => {
  if (res.shouldKeepAlive && req.httpVersion === "1.1") {
    res.setHeader("Connection", "keep-alive");
    res.setHeader("Keep-Alive", `timeout=${KEEP_ALIVE_HINT_S}`);
  }
  // The TCP peer, for first-start protection and sign-in limits (lib/auth/setup-token.ts); a client's own
  // value is dropped, and a proxied request (it names its origin) never counts as this machine's.
  const proxied = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
  setHeader(req, PEER_HEADER, proxied ? "proxied" : (req.socket.remoteAddress ?? ""));
  const path = req.url?.split("?")[0];
  if (path === "/mcp") {
    serveMcp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    return;
  }
  nextHandler(req, res);
});
server.keepAliveTimeout = KEEP_ALIVE_MS;
await new Promise<void>((resolve) => server.listen(port, hostname, resolve));
process.stderr.write(`switchboard: listening on http://${hostname}:${port}\n`);
if ((await ownerCount()) === 0) {
  // First start: /setup is open to this machine's browser; from elsewhere it needs this token.
  process.stderr.write(
    `switchboard: no owner yet. Open http://localhost:${port}/setup on this machine, or from another one ` +
      `/setup?token=${setupToken()}\n`,
  );
}

// issue 11: one embedded runner (SWITCHBOARD_EMBEDDED_RUNNER=0 turns it off), talking to this hub over
// HTTP like any other runner, with a runner token it creates for itself (stored hashed, revoked at exit).
const embedded = env().SWITCHBOARD_EMBEDDED_RUNNER === "1" ? await startEmbeddedRunner() : undefined;

async function startEmbeddedRunner() {
  const { createRunnerToken } = await import("@/lib/domain/runner/tokens");
  const { runnerFromFlags } = await import("@/lib/runner/start");
  const instance = `embedded-${os.hostname()}-${process.pid}`;
  const { id, token } = await createRunnerToken({ name: instance });
  const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const runner = runnerFromFlags({
    hub: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    token,
    name: instance,
  });
  return { id, runner: runner.start() };
}

// Stop cleanly on SIGTERM/SIGINT (process managers, Ctrl-C): the embedded runner ends its agents (they go
// back to the hub's queue, bounded to 10 s), its token is revoked; exit handlers run, open requests are cut.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void shutdown());
}

/**
 * Graceful shutdown (issue 16 §5, docs/decisions.md): stop accepting connections, end every wait (long-polls
 * answer with what they have, a blocked ask_user with `cancelled`), let the requests in flight finish (at
 * most 10 s), stop the embedded runner (its agents go back to the hub's queue), then close the database
 * (SQLite: after the last group commit) and exit. Nothing acknowledged is lost: a reply is sent only after
 * its unit committed.
 */
async function shutdown() {
  const timeout = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
  server.close();
  drain();
  // Keep-alive connections become idle as their last request ends: close each as it does.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const stopping = (async () => {
    if (!embedded) return;
    const { revokeRunnerToken } = await import("@/lib/domain/runner/tokens");
    await Promise.race([embedded.runner.stop(), timeout(10_000)]);
    await revokeRunnerToken(embedded.id).catch(() => {});
  })();
  await Promise.race([Promise.all([new Promise((r) => server.once("close", r)), stopping]), timeout(10_000)]);
  clearInterval(idle);
  server.closeAllConnections();
  await disconnect().catch(() => {});
  process.exit(0);
}
