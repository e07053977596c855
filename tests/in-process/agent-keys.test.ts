// Per-key revoke (issue 16 §2): the owner sees an agent's keys and revokes one; only that key stops working.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

let h: InProcess;
before(async () => {
  h = await startInProcess();
});
after(async () => {
  await h?.stop();
});

test("the owner lists an agent's keys and revokes one: that key is refused, the other keeps working", async () => {
  const { listAgentKeys, revokeAgentKey } = await import("@/lib/domain/agents/keys");
  const db = await import("@/lib/db");
  const g = await goalWithAgents(h, 1);
  const agent = g.agents[1];
  assert.ok(agent);
  const second = await h.agentKey(agent.id);
  const ownerId = (await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: g.goal.goal_id } })))
    .ownerId;
  const agentId = Number(agent.id);
  await agent.client.callTool({ name: "whoami", arguments: {} }); // the first key has been used
  const keys = await listAgentKeys(ownerId, agentId);
  assert.equal(keys.length, 2);
  const [first, other] = keys;
  assert.ok(first && other);
  const stem = (p: string) => p.replace(/…$/, "");
  assert.ok(agent.key.startsWith(stem(first.prefix)) && second.startsWith(stem(other.prefix)));
  assert.ok(first.last_used_at, "the used key shows when");
  assert.equal(other.last_used_at, null);
  assert.deepEqual(
    keys.map((k) => k.revoked_at),
    [null, null],
  );
  assert.ok(!JSON.stringify(keys).includes(agent.key), "never the secret");

  const revoked = await revokeAgentKey(ownerId, agentId, first.key_id);
  assert.equal(revoked.key_id, first.key_id);
  await assert.rejects(h.client(agent.key), /401|unauthorized/i);
  const still = await h.client(second);
  assert.equal(
    sc<{ agent_id: string }>(await still.callTool({ name: "whoami", arguments: {} })).agent_id,
    agent.id,
  );
  const after = await listAgentKeys(ownerId, agentId);
  assert.ok(after[0]?.revoked_at);
  assert.equal(after[1]?.revoked_at, null);
  // Again: nothing changes (same time). Another agent's id with this key: not_found.
  assert.equal((await revokeAgentKey(ownerId, agentId, first.key_id)).revoked_at, after[0]?.revoked_at);
  await assert.rejects(revokeAgentKey(ownerId, Number(g.agents[0]?.id), other.key_id), { code: "not_found" });
});
