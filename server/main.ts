// The production server: one Node HTTP server that answers /mcp directly (the agents' hot path skips
// Next.js's request pipeline, about half of a call's CPU) and hands every other request to Next.
import http from "node:http";
import { Readable } from "node:stream";
import next from "next";
import { seedBuiltinSkills } from "@/lib/domain/skills/skills";
import { startWatchdog } from "@/lib/jobs/watchdog";
import { handleMcpRequest } from "@/lib/mcp/http";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

/** Node request → web Request, web Response → Node response. */
async function serveWeb(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  handler: (r: Request) => Promise<Response>,
) {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else if (v !== undefined) headers.set(k, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: "half",
    signal: controller.signal,
  } as RequestInit);
  const response = await handler(request);
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

const app = next({ dev: false, dir: process.cwd(), hostname, port });
await app.prepare();
// Background jobs: built-in skills seeded, the watchdog loop (one active per deployment, by lease).
await seedBuiltinSkills();
startWatchdog();
const nextHandler = app.getRequestHandler();

const server = http.createServer((req, res) => {
  const path = req.url?.split("?")[0];
  if (path === "/mcp") {
    serveWeb(req, res, handleMcpRequest).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    return;
  }
  nextHandler(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () =>
  process.stderr.write(`switchboard: listening on http://${hostname}:${port}\n`),
);
