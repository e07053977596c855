// File secrets (issue 14, resource_type `file`): the owner supplies a file's bytes (`file_base64` over REST,
// an upload in the browser), they are encrypted byte for byte (NUL and non-UTF-8 bytes included), kept as
// a file through key rotation, and handed to the launch as bytes (never as an environment variable). Bad
// input — empty, over the 256 KiB cap, not base64, both value and file — is invalid_input, nothing written.
// A stored file's kind is authenticated: turning `f1:` into `v1:` fails to decrypt.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

let h: InProcess;
let db: typeof import("@/lib/db");
let launch: typeof import("@/lib/domain/secrets/launch-env");
let rotate: typeof import("@/lib/domain/secrets/rotate-key");
let schemas: typeof import("@/lib/domain/secrets/schemas");

before(async () => {
  h = await startInProcess();
  db = await import("@/lib/db");
  launch = await import("@/lib/domain/secrets/launch-env");
  rotate = await import("@/lib/domain/secrets/rotate-key");
  schemas = await import("@/lib/domain/secrets/schemas");
});
after(async () => {
  await h?.stop();
});

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as Record<string, unknown> & { error?: { code: string; message: string } };
  return { status: r.status, json, code: json.error?.code, message: json.error?.message ?? "" };
}

/** Bytes no text path keeps intact: NUL, invalid UTF-8, CR/LF, and a trailing newline. */
const BINARY = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 0, 13, 10]), Buffer.from("key\n")]);

test("a requested file is supplied as bytes and reaches the launch byte for byte, as a file, through key rotation", async () => {
  const g = await goalWithAgents(h, 1, "files@example.com");
  const coordinator = g.agents[0]?.client as Client;
  const p = sc<{ proposal_message_id: number }>(
    await coordinator.callTool({
      name: "propose_task_tree",
      arguments: { goal_id: g.goal.goal_id, tree: { title: "Deploy", description: "Needs a kubeconfig." } },
    }),
  );
  assert.equal(
    (await rest(g.token, "POST", `/api/approvals/${p.proposal_message_id}/approve`, {})).status,
    200,
  );
  const task = await db.read((u) => u.db.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id } }));
  const asker = g.agents[1] as { id: string; client: Client };
  const req = sc<{ request_id: number }>(
    await asker.client.callTool({
      name: "request_resource",
      arguments: {
        name: "KUBECONFIG",
        resource_type: "file",
        reason: "To deploy the service",
        task_id: task.id,
      },
    }),
  );
  const before = await db.read((u) => u.db.secret.count());
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ file_base64: "" }, /empty/],
    [{ file_base64: "not base64!" }, /base64/],
    [{ file_base64: Buffer.alloc(schemas.MAX_FILE_SECRET_BYTES + 1, 1).toString("base64") }, /262144 bytes/],
    [{ value: "text", file_base64: BINARY.toString("base64") }, /exactly one/],
    [{}, /exactly one/],
  ];
  for (const [body, message] of bad) {
    const r = await rest(g.token, "POST", `/api/requests/${req.request_id}/supply`, {
      ...body,
      scope: "agent",
    });
    assert.equal(r.code, "invalid_input", JSON.stringify(body).slice(0, 80));
    assert.match(r.message, message);
  }
  assert.equal(await db.read((u) => u.db.secret.count()), before, "nothing written");
  // At the cap exactly: accepted.
  const atCap = await rest(g.token, "PUT", `/api/secrets/agent/${asker.id}/BIG_FILE`, {
    file_base64: Buffer.alloc(schemas.MAX_FILE_SECRET_BYTES, 7).toString("base64"),
  });
  assert.equal(atCap.status, 200, JSON.stringify(atCap.json));

  const ok = await rest(g.token, "POST", `/api/requests/${req.request_id}/supply`, {
    file_base64: BINARY.toString("base64"),
    scope: "agent",
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  assert.equal(JSON.stringify(ok.json).includes(BINARY.toString("base64")), false);

  const agentId = Number(asker.id);
  const listed = (await rest(g.token, "GET", "/api/secrets")).json as unknown as {
    name: string;
    kind: string;
  }[];
  assert.deepEqual(
    listed.map((s) => [s.name, s.kind]),
    [
      ["BIG_FILE", "file"],
      ["KUBECONFIG", "file"],
    ],
  );
  const got = await launch.secretsForLaunch(agentId);
  assert.deepEqual(Object.keys(got.env), [], "a file is not an environment variable");
  assert.deepEqual(Buffer.from(got.files.KUBECONFIG ?? "", "base64"), BINARY);
  assert.equal(Buffer.from(got.files.BIG_FILE ?? "", "base64").length, schemas.MAX_FILE_SECRET_BYTES);

  // Precedence is by scope whatever the kind: a text value for the task beats the agent's file.
  assert.equal(
    (await rest(g.token, "PUT", `/api/secrets/task/${task.id}/KUBECONFIG`, { value: "inline" })).status,
    200,
  );
  const withTask = await launch.secretsForLaunch(agentId, task.id);
  assert.equal(withTask.env.KUBECONFIG, "inline");
  assert.equal(withTask.files.KUBECONFIG, undefined);

  // Rotation re-encrypts the file as a file, bytes intact.
  const { rotated } = await rotate.rotateSecretKey();
  assert.ok(rotated >= 3);
  assert.deepEqual(
    Buffer.from((await launch.secretsForLaunch(agentId)).files.KUBECONFIG ?? "", "base64"),
    BINARY,
  );

  // The kind is authenticated: a file's ciphertext relabelled as text fails instead of becoming a variable.
  await db.write(async (u) => {
    const row = await u.db.secret.findFirstOrThrow({ where: { scopeType: "agent", name: "KUBECONFIG" } });
    assert.ok(row.ciphertext?.startsWith("f1:"));
    await u.db.secret.update({
      where: { id: row.id },
      data: { ciphertext: `v1:${row.ciphertext?.slice(3)}` },
    });
  });
  await assert.rejects(launch.secretsForLaunch(agentId), { code: "secret_undecryptable" });
});
