// Secrets (issue 14) through the CLI and a real server: `secret set` reads the value from stdin (never argv)
// and the server lists it; bad input is refused with nothing written; `secret rotate-key` re-encrypts every
// value (the old key no longer opens them); a malformed SWITCHBOARD_SECRET_KEY stops a process at start.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { goalWithAgents, ROOT, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let db: typeof import("@/lib/db");
let launch: typeof import("@/lib/domain/secrets/launch-env");
let crypto: typeof import("@/lib/domain/secrets/crypto");
/** The environment part of a launch's secrets (text values). */
const launchEnv = async (agentId: number, taskId?: number) =>
  (await launch.secretsForLaunch(agentId, taskId)).env;

before(async () => {
  server = await startServer();
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  process.env.SWITCHBOARD_DATA_DIR = server.env.SWITCHBOARD_DATA_DIR;
  db = await import("@/lib/db");
  launch = await import("@/lib/domain/secrets/launch-env");
  crypto = await import("@/lib/domain/secrets/crypto");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

/** Run the CLI with `stdin` as its input; resolves with its exit code and output. */
function cli(args: string[], stdin: string | Buffer, env: NodeJS.ProcessEnv = server.env) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/switchboard.mjs"), ...args], {
      cwd: ROOT,
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += String(d);
    });
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    child.on("exit", (code) => resolve({ code, stdout: stdout.trim(), stderr }));
    child.stdin.end(stdin);
  });
}

test("secret set reads the value from stdin; the server lists the name; bad input writes nothing", async () => {
  const g = await goalWithAgents(server, 1, "cli@example.com");
  const agentId = Number(g.agents[1]?.id);
  const value = `cli-canary-${Math.random().toString(36).slice(2)}`;
  const r = await cli(
    ["secret", "set", "--scope", "agent", "--id", String(agentId), "DEPLOY_TOKEN"],
    `${value}\n`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    name: "DEPLOY_TOKEN",
    scope: "agent",
    scope_id: agentId,
    version: 1,
  });
  assert.ok(!r.stdout.includes(value) && !r.stderr.includes(value));
  const listed = await fetch(`${server.url}/api/secrets/agent/${agentId}`, {
    headers: { Authorization: `Bearer ${g.token}` },
  });
  const body = await listed.text();
  assert.deepEqual(JSON.parse(body), [{ name: "DEPLOY_TOKEN", available: true, last_used_at: null }]);
  assert.ok(!body.includes(value));
  // The trailing newline of stdin is not part of the value.
  assert.deepEqual(await launchEnv(agentId), { DEPLOY_TOKEN: value });

  const count = () => db.read((u) => u.db.secret.count());
  const before = await count();
  for (const [args, stdin, code] of [
    [["--scope", "agent", "--id", String(agentId), "EMPTY"], "", "invalid_input"],
    [["--scope", "agent", "--id", String(agentId), "lower"], "v", "invalid_input"],
    [["--scope", "goal", "--id", "1", "NAME"], "v", "invalid_input"],
    [["--scope", "task", "--id", "999999", "NAME"], "v", "not_found"],
  ] as const) {
    const bad = await cli(["secret", "set", ...args], stdin);
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stderr, new RegExp(`error: ${code}`));
  }
  assert.equal(await count(), before);
});

test("secret set --file keeps stdin's bytes exactly (binary, trailing newline included) as a file secret", async () => {
  const g = await goalWithAgents(server, 1, "cli-file@example.com");
  const agentId = Number(g.agents[1]?.id);
  const bytes = Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 13, 10]);
  const r = await cli(
    ["secret", "set", "--scope", "agent", "--id", String(agentId), "--file", "SSH_KEY"],
    bytes,
  );
  assert.equal(r.code, 0, r.stderr);
  const got = await launch.secretsForLaunch(agentId);
  assert.deepEqual(got.env, {});
  assert.deepEqual(Buffer.from(got.files.SSH_KEY ?? "", "base64"), bytes);
  const empty = await cli(
    ["secret", "set", "--scope", "agent", "--id", String(agentId), "--file", "NONE"],
    "",
  );
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /error: invalid_input.*empty file/);
});

test("secret rotate-key re-encrypts every value; the old key opens none of them", async () => {
  const g = await goalWithAgents(server, 1, "rotate@example.com");
  const agentId = Number(g.agents[1]?.id);
  const set = await cli(["secret", "set", "--scope", "agent", "--id", String(agentId), "ROTATED"], "before");
  assert.equal(set.code, 0, set.stderr);
  const keyFile = path.join(server.env.SWITCHBOARD_DATA_DIR ?? "", "secret.key");
  const oldKey = Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64");
  const r = await cli(["secret", "rotate-key"], "");
  assert.equal(r.code, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).rotated >= 1);
  const newKey = Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64");
  assert.equal(newKey.length, 32);
  assert.notDeepEqual(newKey, oldKey);
  assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
  assert.ok(!fs.existsSync(`${keyFile}.new`));
  crypto.forgetSecretKey();
  assert.equal((await launchEnv(agentId)).ROTATED, "before");
  const row = await db.read((u) => u.db.secret.findFirstOrThrow({ where: { name: "ROTATED" } }));
  const id = {
    ownerId: row.ownerId,
    scopeType: row.scopeType,
    scopeId: row.scopeId,
    name: row.name,
    version: row.version,
  };
  assert.throws(() => crypto.decryptValue(id, row.ciphertext ?? "", oldKey), {
    code: "secret_undecryptable",
  });
});

test("a malformed SWITCHBOARD_SECRET_KEY stops a process at start, naming the variable", async () => {
  const r = await cli(["migrate"], "", {
    ...server.env,
    SWITCHBOARD_SECRET_KEY: Buffer.alloc(16).toString("base64"),
  });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /SWITCHBOARD_SECRET_KEY/);
});
