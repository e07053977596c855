#!/usr/bin/env node
// One client of the keep-alive test (tests/integration/keep-alive.test.ts), alone in its process so that its
// connection pool is its own (global fetch shares one pool per origin within a process):
//   node idle-client.mjs sdk|agent <url> <key> <idle ms>
// makes a call to /mcp, stays idle for <idle ms>, calls again, and prints one JSON line: whether each call
// succeeded, the error of a failed one, and (agent) the server's `Keep-Alive` hint, whether the second call
// reused the first's socket, and when the server closed that socket if it did so during the idle time.
// `sdk`: the MCP SDK's StreamableHTTPClientTransport on Node's global fetch (undici, which honours the
// server's `Keep-Alive: timeout=` hint). `agent`: node:http with `new http.Agent({ keepAlive: true })`, which
// on Node 20 ignores the hint unless given a `timeout` of its own.
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [kind, url, key, idleArg] = process.argv.slice(2);
const idle = Number(idleArg);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const why = (e) =>
  `${e?.message ?? e}${e?.cause ? ` (${e.cause.code ?? ""} ${e.cause.message ?? e.cause})` : ""}`;
const out = { kind, idle_ms: idle, first: false, second: false };

if (kind === "sdk") {
  const client = new Client({ name: "keep-alive-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  out.first = (await client.listTools()).tools.length > 0;
  await sleep(idle);
  try {
    out.second = (await client.listTools()).tools.length > 0;
  } catch (e) {
    out.error = why(e);
  }
  await client.close().catch(() => {});
} else {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const post = () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        new URL("/mcp", url),
        {
          method: "POST",
          agent,
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            text += d;
          });
          res.on("end", () => {
            const ended = Date.now();
            // When the server closes this socket while it is idle in the agent's pool (its real timeout).
            req.socket.once("close", () => {
              out.server_closed_after_ms ??= Date.now() - ended;
            });
            resolve({
              ok: res.statusCode === 200 && text.includes('"tools"'),
              reused: req.reusedSocket,
              keepAlive: res.headers["keep-alive"],
            });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const first = await post();
  out.first = first.ok;
  out.hint = first.keepAlive;
  await sleep(idle);
  try {
    const second = await post();
    out.second = second.ok;
    out.reused = second.reused;
  } catch (e) {
    out.error = why(e);
  }
  agent.destroy();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
