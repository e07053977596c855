#!/usr/bin/env node
// A small agent for the `command` runtime (tests/integration/runner.test.ts): connects to the hub's MCP
// endpoint with the key the runner gave it, says who it is on stdout, and then, by the goal's title:
//   "[crash]" exits 2 at once; "[exit]" exits 0 after whoami; "[stubborn]" stays without a word; otherwise reads its inbox in a loop
//   (printing each message), calls signal_review when a message says SIGNAL_REVIEW, and exits when its
//   key stops working (a newer launch revoked it). With PROBE_SECRET_NAME set it prints the sha256 of that
//   variable (a secret delivered at launch), never the value; with PROBE_SECRET_FILE the sha256 of the file
//   that variable names (a file secret), the file's and its directory's modes, and its path. It never exits on its terminate sentinel: the runner
//   ends it. Its pid goes to $SWITCHBOARD_WORKSPACE/pid.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const env = process.env;
fs.writeFileSync(path.join(env.SWITCHBOARD_WORKSPACE ?? ".", "pid"), String(process.pid));
const title = env.SWITCHBOARD_GOAL_TITLE ?? "";
if (title.includes("[crash]")) {
  process.stderr.write("crashing on purpose\n");
  process.exit(2);
}
process.on("SIGTERM", () => {
  process.stdout.write("stopping on SIGTERM\n");
  process.exit(0);
});

const client = new Client({ name: "agent-script", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(env.SWITCHBOARD_MCP_URL), {
    requestInit: { headers: { Authorization: `Bearer ${env.SWITCHBOARD_API_KEY}` } },
  }),
);
const me = (await client.callTool({ name: "whoami", arguments: {} })).structuredContent;
process.stdout.write(`hello from ${env.SWITCHBOARD_AGENT_NAME} as ${JSON.stringify(me)}\n`);
// A secret the owner supplied arrives in the environment of the launch: print its hash, never its value.
if (env.PROBE_SECRET_NAME) {
  const v = env[env.PROBE_SECRET_NAME];
  const hash = v === undefined ? "absent" : createHash("sha256").update(v).digest("hex");
  process.stdout.write(`secret ${env.PROBE_SECRET_NAME} sha256=${hash}\n`);
}
// A file secret: $NAME is the path of a 0600 file holding the bytes; print their hash and the modes.
if (env.PROBE_SECRET_FILE) {
  const p = env[env.PROBE_SECRET_FILE];
  let line = "absent";
  if (p) {
    const mode = (f) => (fs.statSync(f).mode & 0o777).toString(8);
    const hash = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    line = `sha256=${hash} mode=${mode(p)} dir=${mode(path.dirname(p))} path=${p}`;
  }
  process.stdout.write(`file ${env.PROBE_SECRET_FILE} ${line}\n`);
}
if (title.includes("[exit]")) process.exit(0);
// "[stubborn]": never touches the hub again (so a revoked key cannot end it) and ignores SIGTERM: only
// SIGKILL ends it (tests/integration/runner.test.ts, orphans of a runner killed -9).
if (title.includes("[stubborn]")) {
  process.removeAllListeners("SIGTERM");
  process.on("SIGTERM", () => {});
  process.stdout.write("stubborn: staying\n");
  setInterval(() => {}, 1 << 30);
  await new Promise(() => {});
}

let ack;
for (;;) {
  let r;
  try {
    r = await client.callTool({
      name: "read_inbox",
      arguments: { wait_seconds: 2, ...(ack ? { ack } : {}) },
    });
  } catch (e) {
    process.stderr.write(`read_inbox failed: ${e.message}\n`);
    if (/401|unauthorized/i.test(String(e.message))) process.exit(3);
    await new Promise((res) => setTimeout(res, 300));
    continue;
  }
  const out = r.structuredContent ?? {};
  if (r.isError) {
    await new Promise((res) => setTimeout(res, 300));
    continue;
  }
  ack = out.ack || ack;
  for (const m of out.messages ?? []) {
    process.stdout.write(`message ${m.kind}: ${m.content.slice(0, 200)}\n`);
    if (m.content.includes("SIGNAL_REVIEW")) {
      await client.callTool({
        name: "signal_review",
        arguments: { detail: "[REVIEW REQUIRED] the agent script is done" },
      });
    }
  }
}
