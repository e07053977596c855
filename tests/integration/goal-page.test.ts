// The goal page and the goal REST routes parse their id with the one id parser: anything that is not a
// goal of this owner (malformed, negative, zero, beyond the 32-bit ids, another owner's) is a 404, never a crash.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { goalWithAgents, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

/** A browser session for the harness owner, through next-auth's credentials sign-in. */
async function signIn(email = "owner@example.com", password = "correct-horse-battery"): Promise<string> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  jar.push(...res.headers.getSetCookie().map((c) => c.split(";")[0]));
  const cookie = jar.join("; ");
  assert.match(cookie, /session-token=/, "signed in");
  return cookie;
}

const BAD_IDS = ["abc", "-1", "0", "1.5", "1e3", "0x10", "99999999999", "2147483648"];

test("a malformed or foreign goal id is the goal 404 page", async () => {
  const { goal } = await goalWithAgents(server, 0);
  const other = await goalWithAgents(server, 0, "someone-else@example.com");
  const cookie = await signIn();
  const page = (id: string | number) =>
    fetch(`${server.url}/goals/${id}`, { headers: { cookie }, redirect: "manual" });

  const own = await page(goal.goal_id);
  assert.equal(own.status, 200);
  assert.match(await own.text(), new RegExp(goal.slug));

  for (const id of [...BAD_IDS, other.goal.goal_id, 2147483647]) {
    const r = await page(id);
    assert.equal(r.status, 404, `/goals/${id}`);
    assert.match(await r.text(), /Goal not found/, `/goals/${id}`);
  }
});

test("the goal REST routes answer not_found for the same ids", async () => {
  const token = await server.ownerToken();
  for (const id of BAD_IDS) {
    for (const path of [`/api/goals/${id}`, `/api/goals/${id}/events`, `/api/goals/${id}/messages`]) {
      const r = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(r.status, 404, path);
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, "not_found", path);
    }
  }
});
