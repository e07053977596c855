// The human gateway switched off (gateway_unavailable), and a blocked ask_user answered on another app
// instance sharing the PostgreSQL database.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import {
  errorCode,
  goalWithAgents,
  providerUnderTest,
  sc,
  startServer,
  type TestServer,
} from "../helpers/server";

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers.reverse()) await s.stop();
});

const Q = { question: "Go?", header: "Go", multiSelect: false, options: [] };

test("gateway_unavailable when the hub runs with the human gateway off", async () => {
  const server = await startServer({ env: { SWITCHBOARD_HUMAN_GATEWAY: "off" } });
  servers.push(server);
  const { agents } = await goalWithAgents(server, 1);
  const [c, l] = agents;
  assert.ok(c && l);
  // The coordinator would ask the owner directly.
  const direct = await c.client.callTool({ name: "ask_user", arguments: { questions: [Q] } });
  assert.equal(errorCode(direct), "gateway_unavailable");
  // An agent's question still reaches its leader; escalating past the coordinator is refused.
  const call = l.client.callTool({ name: "ask_user", arguments: { questions: [Q] } });
  let qid: string | undefined;
  for (let i = 0; !qid && i < 30; i++) {
    const r = sc<{ messages: { content: string }[] }>(
      await c.client.callTool({ name: "read_inbox", arguments: { wait_seconds: 2 } }),
    );
    qid = r.messages.map((m) => m.content.match(/qid=(q_\w+)/)?.[1]).find(Boolean);
  }
  assert.ok(qid);
  const esc = await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "owner?" } });
  assert.equal(errorCode(esc), "gateway_unavailable");
  await c.client.callTool({
    name: "answer_question",
    arguments: { qid, answers: [{ selected_labels: [], text: "yes" }], reason: "I decide" },
  });
  assert.equal(sc<{ answer_text: string }>(await call).answer_text, "Go: yes");
});

test("an ask_user blocked on instance one returns when the owner answers on instance two", {
  skip: providerUnderTest() !== "postgres" && "PostgreSQL mode only",
}, async () => {
  const one = await startServer();
  servers.push(one);
  const two = await startServer({ shareDatabaseWith: one });
  servers.push(two);
  const { agents, token } = await goalWithAgents(one, 0);
  const c = agents[0];
  assert.ok(c);
  const call = c.client.callTool({ name: "ask_user", arguments: { questions: [Q] } }, undefined, {
    timeout: 3000,
    resetTimeoutOnProgress: true,
    onprogress: () => {},
  });
  let qid: string | undefined;
  for (let i = 0; !qid && i < 50; i++) {
    const r = await fetch(`${two.url}/api/questions?status=pending`, {
      headers: { authorization: `Bearer ${token}` },
    });
    qid = ((await r.json()) as { questions: { qid: string }[] }).questions[0]?.qid;
    if (!qid) await new Promise((res) => setTimeout(res, 100));
  }
  assert.ok(qid);
  await new Promise((r) => setTimeout(r, 300));
  const sentAt = Date.now();
  const r = await fetch(`${two.url}/api/questions/${qid}/answer`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ answers: [{ selected_labels: [], text: "ship it" }] }),
  });
  assert.equal(r.status, 200);
  assert.equal(sc<{ answer_text: string }>(await call).answer_text, "Go: ship it");
  assert.ok(Date.now() - sentAt < 900, `woken by NOTIFY (${Date.now() - sentAt} ms), not the 1 s re-check`);
  // Instance one agrees.
  const check = await fetch(`${one.url}/api/questions/${qid}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(((await check.json()) as { status: string }).status, "answered");
});
