// The error catalogue through the real REST surface: one status per code, the one zod mapping, and the
// reject schema refusing an empty reason without deciding anything.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { goalWithAgents, sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
const clients: Client[] = [];

before(async () => {
  server = await startServer();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await server?.stop();
});

async function rest(token: string, method: string, url: string, body?: string) {
  const r = await fetch(`${server.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
  const json = (await r.json()) as {
    error?: { code: string; message: string; details: Record<string, unknown> };
  } & Record<string, unknown>;
  return { status: r.status, json, error: json.error };
}

test("REST reject: a blank reason is invalid_input (422) naming `reason`, and the proposal stays pending", async () => {
  const g = await goalWithAgents(server, 0);
  clients.push(g.owner, ...g.agents.map((a) => a.client));
  const coordinator = g.agents[0];
  assert.ok(coordinator);
  const proposed = await coordinator.client.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: g.goal.goal_id,
      tree: { title: "Root", description: "The whole job, described well enough." },
    },
  });
  const { proposal_message_id: id } = sc<{ proposal_message_id: number }>(proposed);
  for (const reason of ["", "   "]) {
    const r = await rest(g.token, "POST", `/api/approvals/${id}/reject`, JSON.stringify({ reason }));
    assert.equal(r.status, 422, JSON.stringify(r.json));
    assert.equal(r.error?.code, "invalid_input");
    assert.deepEqual(
      ((r.error?.details.issues ?? []) as { path: string }[]).map((i) => i.path),
      ["reason"],
    );
  }
  const pending = await rest(g.token, "GET", "/api/approvals?status=pending");
  assert.deepEqual(
    (pending.json as unknown as { proposal_message_id: number }[]).map((p) => p.proposal_message_id),
    [id],
    "nothing was decided",
  );
  // A real reason still decides it (the refused calls left it pending).
  const ok = await rest(
    g.token,
    "POST",
    `/api/approvals/${id}/reject`,
    JSON.stringify({ reason: "Split it" }),
  );
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
});

test("REST: a body that is not JSON is invalid_input with the code's one status (422)", async () => {
  const token = await server.ownerToken();
  const r = await rest(token, "POST", "/api/goals", "{not json");
  assert.deepEqual([r.status, r.error?.code], [422, "invalid_input"]);
});

test("REST: unauthorized and not_found keep their shape and statuses", async () => {
  const anon = await fetch(`${server.url}/api/goals`);
  assert.equal(anon.status, 401);
  assert.match(anon.headers.get("www-authenticate") ?? "", /Bearer/);
  assert.deepEqual(await anon.json(), {
    error: { code: "unauthorized", message: "Sign in or send an owner token", details: {} },
  });
  const token = await server.ownerToken();
  const missing = await rest(token, "GET", "/api/goals/abc");
  assert.deepEqual([missing.status, missing.error?.code], [404, "not_found"]);
});
