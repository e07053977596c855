// Secrets (issue 14): request_resource and list_resources through the real MCP client, the owner's REST
// (supply, decline, set, replace, revoke, list), secretsForLaunch (precedence, last used, revoked), the
// encryption (AAD, fresh nonces, tampered and moved rows, a bad key file), and the canary: after a full flow
// the value is nowhere but in the launch environment (MCP results, REST bodies, log lines, every table, the
// SQLite file).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { errorCode, goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

const CANARY = `canary-${Math.random().toString(36).slice(2)}-SECRET-VALUE`;

let h: InProcess;
let db: typeof import("@/lib/db");
let launch: typeof import("@/lib/domain/secrets/launch-env");
let crypto: typeof import("@/lib/domain/secrets/crypto");
/** The environment part of a launch's secrets (text values). */
const launchEnv = async (agentId: number, taskId?: number) =>
  (await launch.secretsForLaunch(agentId, taskId)).env;

/** Everything a surface answered, and every line written to stderr (the log), for the canary search. */
const seen: string[] = [];
const logLines: string[] = [];
const writeStderr = process.stderr.write.bind(process.stderr);

type G = Awaited<ReturnType<typeof goalWithAgents>> & { tasks: number[]; ownerId: number };
let g: G; // owner A's goal: coordinator + agent-0, two approved tasks
let other: G; // owner B's goal

before(async () => {
  h = await startInProcess({ env: { LOG_LEVEL: "debug" } });
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logLines.push(String(chunk));
    return (writeStderr as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  db = await import("@/lib/db");
  launch = await import("@/lib/domain/secrets/launch-env");
  crypto = await import("@/lib/domain/secrets/crypto");
  g = await approvedGoal("a@example.com");
  other = await approvedGoal("b@example.com");
});
after(async () => {
  process.stderr.write = writeStderr;
  await h?.stop();
});

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  seen.push(JSON.stringify(r));
  return r;
}

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  seen.push(text);
  const json = JSON.parse(text) as Record<string, unknown> & { error?: { code: string } };
  return { status: r.status, json, code: json.error?.code };
}

async function approvedGoal(email: string): Promise<G> {
  const base = await goalWithAgents(h, 1, email);
  const coordinator = base.agents[0]?.client as Client;
  const p = await coordinator.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: base.goal.goal_id,
      tree: {
        title: "Ship the integration",
        description: "Integrate with the payment provider.",
        children: [{ title: "Call the API", description: "Needs the provider's API key." }],
      },
    },
  });
  const id = sc<{ proposal_message_id: number }>(p).proposal_message_id;
  const a = await rest(base.token, "POST", `/api/approvals/${id}/approve`, {});
  assert.equal(a.status, 200, JSON.stringify(a.json));
  const tasks = await db.read((u) =>
    u.db.goalTask.findMany({ where: { goalId: base.goal.goal_id }, orderBy: { id: "asc" } }),
  );
  const goal = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: base.goal.goal_id } }));
  return { ...base, tasks: tasks.map((t) => t.id), ownerId: goal.ownerId };
}

const agent = (x: G, i = 1) => x.agents[i] as { id: string; key: string; client: Client };
const count = (what: "secret" | "resourceRequest") =>
  db.read((u) => (what === "secret" ? u.db.secret.count() : u.db.resourceRequest.count()));
type Inbox = { messages: { kind: string; content: string; from: string }[]; ack: number };
async function inbox(client: Client): Promise<Inbox["messages"]> {
  const r = sc<Inbox>(await call(client, "read_inbox", {}));
  if (r.messages.length > 0) await call(client, "read_inbox", { ack: r.ack });
  return r.messages;
}

test("request_resource refuses bad input and another goal's task, writing nothing", async () => {
  const a = agent(g).client;
  const task = g.tasks[1] as number;
  const ok = { name: "STRIPE_API_KEY", resource_type: "api_key", reason: "Charges in tests", task_id: task };
  const before = await count("resourceRequest");
  for (const [args, field] of [
    [{ ...ok, name: "stripe_key" }, "name"],
    [{ ...ok, name: "1KEY" }, "name"],
    [{ ...ok, resource_type: "password" }, "resource_type"],
    [{ ...ok, reason: "why" }, "reason"],
    [{ ...ok, task_id: undefined }, "task_id"],
    [{ ...ok, owner: 1 }, "owner"],
  ] as const) {
    const r = await call(a, "request_resource", args);
    assert.equal(errorCode(r), "invalid_input", `${field}: ${JSON.stringify(r)}`);
  }
  const foreign = await call(a, "request_resource", { ...ok, task_id: other.tasks[1] });
  assert.equal(errorCode(foreign), "not_found");
  const missing = await call(a, "request_resource", { ...ok, task_id: 999_999 });
  assert.equal(errorCode(missing), "not_found");
  assert.equal(await count("resourceRequest"), before);
});

test("request_resource writes a request and a #requests post; the same open request returns the same ids, even raced", async () => {
  const a = agent(g).client;
  const args = {
    name: "PAYMENT_TOKEN",
    resource_type: "credential",
    reason: "The sandbox needs it",
    task_id: g.tasks[1],
  };
  const results = await Promise.all(Array.from({ length: 6 }, () => call(a, "request_resource", args)));
  const ids = results.map((r) => sc<{ request_id: number; request_message_id: number }>(r));
  for (const r of results) assert.equal(errorCode(r), undefined, JSON.stringify(r));
  assert.equal(new Set(ids.map((i) => i.request_id)).size, 1);
  assert.equal(new Set(ids.map((i) => i.request_message_id)).size, 1);
  const first = ids[0] as { request_id: number; request_message_id: number };
  assert.deepEqual(Object.keys(first).sort(), ["request_id", "request_message_id"]);
  const post = await db.read((u) =>
    u.db.message.findUniqueOrThrow({ where: { id: first.request_message_id }, include: { channel: true } }),
  );
  assert.equal(post.channel?.name, "requests");
  assert.equal(post.kind, "resource_request");
  assert.deepEqual(JSON.parse(post.metaJson ?? "{}"), {
    request_id: first.request_id,
    name: "PAYMENT_TOKEN",
    resource_type: "credential",
    task_id: g.tasks[1],
    reason: "The sandbox needs it",
  });
  // The owner sees it (and only this owner).
  const list = await rest(g.token, "GET", "/api/requests?status=open");
  const views = list.json as unknown as { request_id: number; agent: { agent_id: number }; reason: string }[];
  assert.ok(views.some((v) => v.request_id === first.request_id && v.reason === "The sandbox needs it"));
  const stranger = await rest(other.token, "GET", "/api/requests?status=open");
  assert.ok(
    !(stranger.json as unknown as { request_id: number }[]).some((v) => v.request_id === first.request_id),
  );
});

test("list_resources: the caller's scopes only, names and availability, never a value", async () => {
  const a = agent(g);
  const empty = await call(a.client, "list_resources", {});
  assert.deepEqual(sc(empty), { resources: [] });
  const foreign = await call(a.client, "list_resources", { task_id: other.tasks[0] });
  assert.equal(errorCode(foreign), "not_found");
  assert.equal(errorCode(await call(a.client, "list_resources", { task_id: "1" })), "invalid_input");
});

test("the owner supplies a request in a chosen scope; the agent is told; a second decision is request_not_open", async () => {
  const a = agent(g);
  await inbox(a.client);
  const r = sc<{ request_id: number }>(
    await call(a.client, "request_resource", {
      name: "SUPPLY_ME",
      resource_type: "api_key",
      reason: "Needed to call the API",
      task_id: g.tasks[1],
    }),
  );
  // Another owner cannot supply or decline it; bad values are refused; nothing is written.
  const secrets = await count("secret");
  assert.equal(
    (await rest(other.token, "POST", `/api/requests/${r.request_id}/supply`, { value: CANARY })).code,
    "not_found",
  );
  assert.equal(
    (await rest(other.token, "POST", `/api/requests/${r.request_id}/decline`, { reason: "no" })).code,
    "not_found",
  );
  const empty = await rest(g.token, "POST", `/api/requests/${r.request_id}/supply`, { value: "   " });
  assert.equal(empty.status, 422);
  const huge = `${CANARY}${"x".repeat(70_000)}`;
  const tooBig = await rest(g.token, "POST", `/api/requests/${r.request_id}/supply`, { value: huge });
  assert.equal(tooBig.code, "invalid_input");
  const badScope = await rest(g.token, "POST", `/api/requests/${r.request_id}/supply`, {
    value: CANARY,
    scope: "goal",
  });
  assert.equal(badScope.code, "invalid_input");
  assert.equal(await count("secret"), secrets);

  const ok = await rest(g.token, "POST", `/api/requests/${r.request_id}/supply`, {
    value: CANARY,
    scope: "task",
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  assert.deepEqual(ok.json, {
    request_id: r.request_id,
    status: "supplied",
    name: "SUPPLY_ME",
    scope: "task",
    scope_id: g.tasks[1],
    version: 1,
  });
  const again = await rest(g.token, "POST", `/api/requests/${r.request_id}/supply`, { value: "other" });
  assert.equal(again.status, 409);
  assert.equal(again.code, "request_not_open");
  assert.equal(
    (await rest(g.token, "POST", `/api/requests/${r.request_id}/decline`, { reason: "late" })).code,
    "request_not_open",
  );

  const msgs = await inbox(a.client);
  const told = msgs.find((m) => m.kind === "resource_available");
  assert.ok(told, JSON.stringify(msgs));
  assert.match(told.content, /SUPPLY_ME is now available for task/);
  assert.match(told.content, /next launch/);

  const withTask = sc<{ resources: unknown[] }>(
    await call(a.client, "list_resources", { task_id: g.tasks[1] }),
  );
  assert.deepEqual(withTask.resources, [{ name: "SUPPLY_ME", scope: "task", available: true }]);
  const without = sc<{ resources: unknown[] }>(await call(a.client, "list_resources", {}));
  assert.deepEqual(without.resources, []);
  // The other agent of the goal on the same task sees the task's secret; another goal's agent cannot ask for it.
  const coordinator = g.agents[0]?.client as Client;
  const co = sc<{ resources: unknown[] }>(await call(coordinator, "list_resources", { task_id: g.tasks[1] }));
  assert.deepEqual(co.resources, [{ name: "SUPPLY_ME", scope: "task", available: true }]);
  assert.equal(
    errorCode(await call(agent(other).client, "list_resources", { task_id: g.tasks[1] })),
    "not_found",
  );
});

test("the owner declines with a reason that reaches the agent's inbox", async () => {
  const a = agent(g);
  await inbox(a.client);
  const r = sc<{ request_id: number }>(
    await call(a.client, "request_resource", {
      name: "PROD_DB_URL",
      resource_type: "url",
      reason: "To check the data",
      task_id: g.tasks[0],
    }),
  );
  const no = await rest(g.token, "POST", `/api/requests/${r.request_id}/decline`, { reason: "" });
  assert.equal(no.code, "invalid_input");
  const d = await rest(g.token, "POST", `/api/requests/${r.request_id}/decline`, {
    reason: "Use staging instead",
  });
  assert.deepEqual(d.json, { request_id: r.request_id, status: "declined" });
  const msgs = await inbox(a.client);
  const m = msgs.find((x) => x.kind === "resource_declined");
  assert.ok(m, JSON.stringify(msgs));
  assert.match(m.content, /Use staging instead/);
  assert.equal(
    (await rest(g.token, "POST", `/api/requests/999999/decline`, { reason: "x" })).code,
    "not_found",
  );
});

test("REST: set, list by scope, replace, revoke; another owner's scope is 404; bad scopes and names are refused", async () => {
  const a = agent(g);
  const put = (token: string, scope: string, name: string, value: unknown) =>
    rest(token, "PUT", `/api/secrets/${scope}/${name}`, { value });
  const user = await put(g.token, `user/${g.ownerId}`, "SHARED_KEY", "user-value");
  assert.deepEqual(user.json, {
    name: "SHARED_KEY",
    scope: "user",
    scope_id: g.ownerId,
    version: 1,
    available: true,
  });
  assert.equal((await put(g.token, `agent/${a.id}`, "SHARED_KEY", "agent-value")).status, 200);
  assert.equal((await put(g.token, `task/${g.tasks[0]}`, "SHARED_KEY", "task-value")).status, 200);
  const replaced = await put(g.token, `user/${g.ownerId}`, "SHARED_KEY", "user-value-2");
  assert.equal((replaced.json as { version: number }).version, 2);

  const listed = await rest(g.token, "GET", `/api/secrets/agent/${a.id}`);
  assert.deepEqual(listed.json, [{ name: "SHARED_KEY", available: true, last_used_at: null }]);

  const secrets = await count("secret");
  for (const [token, url] of [
    [other.token, `user/${g.ownerId}`],
    [other.token, `agent/${a.id}`],
    [other.token, `task/${g.tasks[0]}`],
    [g.token, `user/${other.ownerId}`],
    [g.token, "goal/1"],
    [g.token, "agent/abc"],
    [g.token, "agent/999999"],
  ] as const) {
    assert.equal((await rest(token, "GET", `/api/secrets/${url}`)).status, 404, url);
    assert.equal((await put(token, url, "SHARED_KEY", "overwrite")).status, 404, url);
    assert.equal((await rest(token, "DELETE", `/api/secrets/${url}/SHARED_KEY`)).status, 404, url);
  }
  assert.equal((await put(g.token, `agent/${a.id}`, "lower_case", "v")).code, "invalid_input");
  assert.equal((await put(g.token, `agent/${a.id}`, "EMPTY", "")).code, "invalid_input");
  assert.equal((await put(g.token, `agent/${a.id}`, "NUL", "a\0b")).code, "invalid_input");
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/agent/${a.id}/X`, { value: "v", extra: 1 })).code,
    "invalid_input",
  );
  assert.equal(await count("secret"), secrets);
  // Another owner's PUT did not overwrite: the agent value still wins at launch (below).

  const revoked = await rest(g.token, "DELETE", `/api/secrets/agent/${a.id}/SHARED_KEY`);
  assert.deepEqual(revoked.json, {
    name: "SHARED_KEY",
    scope: "agent",
    scope_id: Number(a.id),
    available: false,
  });
  assert.equal((await rest(g.token, "DELETE", `/api/secrets/agent/${a.id}/NOPE`)).code, "not_found");
  const after = await rest(g.token, "GET", `/api/secrets/agent/${a.id}`);
  assert.deepEqual(after.json, [{ name: "SHARED_KEY", available: false, last_used_at: null }]);
  const lr = sc<{ resources: unknown[] }>(await call(a.client, "list_resources", { task_id: g.tasks[0] }));
  assert.deepEqual(lr.resources, [
    { name: "SHARED_KEY", scope: "task", available: true },
    { name: "SHARED_KEY", scope: "agent", available: false },
    { name: "SHARED_KEY", scope: "user", available: true },
  ]);
});

test("secretsForLaunch: task > agent > user, revoked not delivered, last used recorded, an event names without values", async () => {
  const a = agent(g);
  const id = Number(a.id);
  // The agent value of SHARED_KEY was revoked above: the task's wins with the task, the user's without.
  const withTask = await launchEnv(id, g.tasks[0]);
  assert.equal(withTask.SHARED_KEY, "task-value");
  const plain = await launchEnv(id);
  assert.deepEqual(plain, { SHARED_KEY: "user-value-2" });
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/agent/${a.id}/SHARED_KEY`, { value: "agent-value-2" })).status,
    200,
  );
  assert.deepEqual(await launchEnv(id), { SHARED_KEY: "agent-value-2" });
  const withSupplied = await launchEnv(id, g.tasks[1]);
  assert.equal(withSupplied.SUPPLY_ME, CANARY);
  await assert.rejects(launchEnv(id, other.tasks[0]), { code: "not_found" });
  // Another goal's agent gets none of this owner's secrets.
  assert.deepEqual(await launchEnv(Number(agent(other).id)), {});

  const listed = await rest(g.token, "GET", `/api/secrets/task/${g.tasks[1]}`);
  const row = (listed.json as unknown as { name: string; last_used_at: string | null }[])[0];
  assert.ok(row?.last_used_at, JSON.stringify(listed.json));
  const all = await rest(g.token, "GET", "/api/secrets");
  const supplied = (
    all.json as unknown as { name: string; last_used_by: { agent_id: number } | null }[]
  ).find((s) => s.name === "SUPPLY_ME");
  assert.equal(supplied?.last_used_by?.agent_id, id);
  const events = await db.read((u) =>
    u.db.event.findMany({ where: { goalId: g.goal.goal_id, name: "secrets_delivered" } }),
  );
  assert.ok(events.length >= 4);
  assert.ok(events.some((e) => e.dataJson.includes("SUPPLY_ME")));
});

test("encryption: fresh nonce per value, the identity bound as AAD, a tampered or moved row fails to decrypt", async () => {
  const id = { ownerId: 1, scopeType: "agent", scopeId: 2, name: "K", version: 1 };
  const c1 = crypto.encryptValue(id, "same");
  const c2 = crypto.encryptValue(id, "same");
  assert.notEqual(c1, c2);
  assert.equal(crypto.decryptValue(id, c1), "same");
  for (const changed of [
    { ownerId: 9 },
    { scopeType: "task" },
    { scopeId: 3 },
    { name: "L" },
    { version: 2 },
  ]) {
    assert.throws(() => crypto.decryptValue({ ...id, ...changed }, c1), { code: "secret_undecryptable" });
  }
  const raw = Buffer.from(c1.slice(3), "base64");
  raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
  assert.throws(() => crypto.decryptValue(id, `v1:${raw.toString("base64")}`), {
    code: "secret_undecryptable",
  });
  assert.throws(() => crypto.decryptValue(id, "plain"), { code: "secret_undecryptable" });

  // A ciphertext copied into another row (the user-scoped SHARED_KEY's into the agent's) is refused at launch.
  const a = Number(agent(g).id);
  await db.write(async (u) => {
    const from = await u.db.secret.findFirstOrThrow({ where: { scopeType: "user", name: "SHARED_KEY" } });
    await u.db.secret.updateMany({
      where: { scopeType: "agent", scopeId: a, name: "SHARED_KEY" },
      data: { ciphertext: from.ciphertext },
    });
  });
  const before = await db.read((u) => u.db.secret.findMany({ select: { lastUsedAt: true } }));
  await assert.rejects(launchEnv(a), { code: "secret_undecryptable" });
  assert.deepEqual(await db.read((u) => u.db.secret.findMany({ select: { lastUsedAt: true } })), before);
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/agent/${a}/SHARED_KEY`, { value: "repaired" })).status,
    200,
  );
  assert.deepEqual(await launchEnv(a), { SHARED_KEY: "repaired" });
});

test("the key file is created with mode 0600; a corrupt one is secret_key_invalid, never a silent fallback", async () => {
  const file = crypto.keyFilePath();
  const st = fs.statSync(file);
  assert.equal(st.mode & 0o777, 0o600);
  const good = fs.readFileSync(file, "utf8");
  assert.equal(Buffer.from(good.trim(), "base64").length, 32);
  try {
    fs.writeFileSync(file, Buffer.from("short").toString("base64"));
    crypto.forgetSecretKey();
    const r = await rest(g.token, "PUT", `/api/secrets/user/${g.ownerId}/ANOTHER`, { value: "x" });
    assert.equal(r.status, 500);
    assert.equal(r.code, "secret_key_invalid");
    assert.equal(await db.read((u) => u.db.secret.count({ where: { name: "ANOTHER" } })), 0);
  } finally {
    fs.writeFileSync(file, good);
    crypto.forgetSecretKey();
  }
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/user/${g.ownerId}/ANOTHER`, { value: "x" })).status,
    200,
  );
});

test("canary: the supplied value appears in no MCP result, REST body, log line, table or database file", async () => {
  const hits = (s: string) => s.includes(CANARY);
  // A file secret carrying the canary too (binary around it): stored and searched the same way.
  const fileBytes = Buffer.concat([Buffer.from([0, 255]), Buffer.from(CANARY), Buffer.from([0])]);
  const putFile = await rest(g.token, "PUT", `/api/secrets/agent/${agent(g).id}/CANARY_FILE`, {
    file_base64: fileBytes.toString("base64"),
  });
  assert.equal(putFile.status, 200, JSON.stringify(putFile.json));
  assert.ok(seen.length > 50);
  assert.deepEqual(seen.filter(hits), []);
  assert.deepEqual(logLines.filter(hits), []);
  const tables = await db.read((u) =>
    u.sql.all<{ name: string }>(
      h.provider === "postgres"
        ? `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`
        : `SELECT name FROM sqlite_master WHERE type = 'table'`,
    ),
  );
  assert.ok(tables.some((t) => t.name === "Secret"));
  for (const { name } of tables) {
    const rows = await db.read((u) => u.sql.all(`SELECT * FROM "${name}"`));
    assert.ok(!hits(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v))), name);
  }
  if (h.provider === "sqlite") {
    const file = (h.env.DATABASE_URL ?? "").replace(/^file:/, "");
    assert.ok(fs.existsSync(file), file);
    for (const f of [file, `${file}-wal`]) {
      if (fs.existsSync(f)) assert.ok(!fs.readFileSync(f).includes(CANARY), path.basename(f));
    }
  } else {
    // The PostgreSQL dump (pg_dump comes with the server: `npm run test:all` installs it).
    const dump = spawnSync("pg_dump", ["--no-owner", h.env.DATABASE_URL ?? ""], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    assert.equal(dump.status, 0, dump.stderr);
    assert.ok(dump.stdout.includes('"Secret"'), "the dump holds the Secret table");
    assert.ok(!hits(dump.stdout), "the canary is not in the PostgreSQL dump");
  }
  // …and yet a process launched with the map has it (what the runner will do, issue 11): the child proves it
  // by a digest, so the value itself never crosses back.
  const envMap = await launchEnv(Number(agent(g).id), g.tasks[1]);
  const digest = (v: string) => createHash("sha256").update(v).digest("hex");
  const child = spawnSync(
    process.execPath,
    [
      "-e",
      "process.stdout.write(require('node:crypto').createHash('sha256').update(process.env.SUPPLY_ME ?? '').digest('hex'))",
    ],
    { env: { ...process.env, ...envMap }, encoding: "utf8" },
  );
  assert.equal(child.stdout, digest(CANARY));
  const launched = await launch.secretsForLaunch(Number(agent(g).id), g.tasks[1]);
  assert.deepEqual(Buffer.from(launched.files.CANARY_FILE ?? "", "base64"), fileBytes);
});
