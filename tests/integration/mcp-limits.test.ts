// Per-credential limits at the /mcp door (issue 16): calls per second (429 rate_limited with Retry-After,
// other credentials unaffected) and the JSON-RPC batch size.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { goalWithAgents, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_CALLS_PER_S: "5", SWITCHBOARD_MAX_BATCH: "4" } });
});
after(() => server?.stop());

const rpc = (key: string, body: unknown) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify(body),
  });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

test("a credential over its calls per second gets 429 rate_limited with Retry-After; others go on", async () => {
  const { agents } = await goalWithAgents(server, 2);
  const [, a, b] = agents;
  assert.ok(a && b);
  // The bucket holds two seconds' worth (10 calls): once full again (the SDK client's own initialize spent
  // some), the 11th call of a burst is refused.
  await new Promise((r) => setTimeout(r, 2100));
  const statuses: number[] = [];
  for (let i = 0; i < 14; i++) statuses.push((await rpc(a.key, ping(i))).status);
  assert.ok(
    statuses.slice(0, 10).every((s) => s === 200),
    statuses.join(","),
  );
  const refused = await rpc(a.key, ping(99));
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  const body = (await refused.json()) as { error: { data: { code: string; details: { limit: string } } } };
  assert.equal(body.error.data.code, "rate_limited");
  assert.equal(body.error.data.details.limit, "calls_per_second");
  assert.equal((await rpc(b.key, ping(1))).status, 200, "another agent's key is not limited");
  // The bucket refills.
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal((await rpc(a.key, ping(100))).status, 200);
});

test("a batch over SWITCHBOARD_MAX_BATCH is refused whole (413 batch_too_large); one within it is served", async () => {
  const { agents } = await goalWithAgents(server, 1);
  const a = agents[1];
  assert.ok(a);
  const big = await rpc(
    a.key,
    Array.from({ length: 5 }, (_, i) => ping(i)),
  );
  assert.equal(big.status, 413);
  assert.equal(
    ((await big.json()) as { error: { data: { code: string } } }).error.data.code,
    "batch_too_large",
  );
  const ok = await rpc(
    a.key,
    Array.from({ length: 4 }, (_, i) => ping(i)),
  );
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as unknown[]).length, 4);
});
