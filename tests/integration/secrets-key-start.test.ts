// The secret key at server start (issue 14, docs/secrets.md "The key at start"): the server creates the key
// file 0600 on a fresh install, and refuses to start — with a message naming the fix — when the key file is
// open to others, owned by another user, of the wrong length, missing while secrets are stored, or when the
// key opens none of the stored secrets. `switchboard secret revoke-all --yes` is the way out of a lost key.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let keyFile: string;
let userId: number;
let token: string;

before(async () => {
  server = await startServer();
  keyFile = path.join(server.env.SWITCHBOARD_DATA_DIR ?? "", "secret.key");
  token = await server.ownerToken("keys@example.com");
  const owner = await server.client(token);
  userId = sc<{ user_id: number }>(await owner.callTool({ name: "whoami", arguments: {} })).user_id;
  await owner.close();
});
after(async () => {
  await server?.stop();
});

async function put(name: string, value: string) {
  const r = await server.fetch(`/api/secrets/user/${userId}/${name}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ value }),
  });
  assert.equal(r.status, 200, await r.text());
}

/** Restart expecting a refusal; returns the server's stderr. */
async function refused(): Promise<string> {
  const e = await server.restart().then(
    () => undefined,
    (err: Error) => err,
  );
  assert.ok(e, "the server started but should have refused");
  assert.match(e.message, /server exited: [\s\S]*cannot start: secret_key_invalid/);
  return e.message;
}

test("a fresh install creates the key file 0600 at start, before any secret is stored", () => {
  const st = fs.statSync(keyFile);
  assert.equal(st.mode & 0o777, 0o600);
  assert.equal(Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64").length, 32);
});

test("the server refuses to start with a key file open to others, of the wrong length, or missing while secrets are stored", async () => {
  await put("START_CHECK", "value-1");
  const good = fs.readFileSync(keyFile, "utf8");

  fs.chmodSync(keyFile, 0o644);
  assert.match(await refused(), /mode 0644[\s\S]*chmod 600/);
  fs.chmodSync(keyFile, 0o600);

  fs.writeFileSync(keyFile, Buffer.from("short").toString("base64"));
  assert.match(await refused(), /not the base64 encoding of exactly 32 bytes/);
  fs.writeFileSync(keyFile, good);

  fs.renameSync(keyFile, `${keyFile}.away`);
  assert.match(await refused(), /is missing, but secrets are stored/);
  assert.ok(!fs.existsSync(keyFile), "no fresh key was made beside the stored values");
  fs.renameSync(`${keyFile}.away`, keyFile);

  if (process.getuid?.() === 0) {
    fs.chownSync(keyFile, 65534, 65534);
    assert.match(await refused(), /owned by uid 65534[\s\S]*chown/);
    fs.chownSync(keyFile, 0, 0);
  }

  await server.restart(); // the right key, the right mode: it starts
  const r = await server.fetch(`/api/secrets/user/${userId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.deepEqual(
    ((await r.json()) as { name: string; available: boolean }[]).map((s) => [s.name, s.available]),
    [["START_CHECK", true]],
  );
});

test("a key that opens none of the stored secrets is refused; revoke-all is the way out", async () => {
  const other = Buffer.alloc(32, 9).toString("base64");
  server.env.SWITCHBOARD_SECRET_KEY = other;
  try {
    assert.match(await refused(), /decrypts none of the 1 newest stored secrets/);
    const out = await server.cli("secret", "revoke-all", "--yes");
    assert.deepEqual(JSON.parse(out), { revoked: 1 });
    await server.restart(); // nothing left to open: the new key is accepted
    const r = await server.fetch(`/api/secrets/user/${userId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(
      ((await r.json()) as { name: string; available: boolean }[]).map((s) => [s.name, s.available]),
      [["START_CHECK", false]],
    );
  } finally {
    delete server.env.SWITCHBOARD_SECRET_KEY;
  }
});
