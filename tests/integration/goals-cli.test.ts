// create_goal over MCP and REST, the events API and its authorization, and the CLI's contract with scripts.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { errorCode, mcpClient, ROOT, sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server?.stop());

type Created = { goal_id: number; slug: string; channel_id: number; coordinator_agent_id: number };

test("create_goal: draft goal, #goal-<slug> channel with -2, -3 on collisions, coordinator led by the owner", async () => {
  const owner = await mcpClient(server.url, await server.ownerToken());
  const args = {
    title: "Keep the docs accurate!",
    description: "Docs must match the code at all times.",
    budget_dollars_cents: 500,
  };
  const created: Created[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await owner.callTool({ name: "create_goal", arguments: args });
    assert.equal(errorCode(r), undefined);
    created.push(sc<Created>(r));
  }
  assert.deepEqual(
    created.map((g) => g.slug),
    ["keep-the-docs-accurate", "keep-the-docs-accurate-2", "keep-the-docs-accurate-3"],
  );
  for (const g of created)
    assert.deepEqual(Object.keys(g).sort(), ["channel_id", "coordinator_agent_id", "goal_id", "slug"]);

  const token = await server.ownerToken();
  const list = (await (
    await fetch(`${server.url}/api/goals`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    id: number;
    slug: string;
    status: string;
    channel_id: number;
    cost_totals: { budget_cents: number | null };
    task_count: number;
  }[];
  const first = list.find((g) => g.id === created[0]?.goal_id);
  assert.equal(first?.status, "draft");
  assert.equal(first?.channel_id, created[0]?.channel_id);
  assert.equal(first?.cost_totals.budget_cents, 500);

  const coordKey = await server.cli("agent", "key", String(created[0]?.coordinator_agent_id));
  const coord = await mcpClient(server.url, coordKey);
  const peers = sc<{ peers: { agent_id: string; role: string }[] }>(
    await coord.callTool({ name: "list_peers", arguments: { scope: "all" } }),
  );
  assert.deepEqual(
    peers.peers.map((p) => p.role),
    ["coordinator"],
  );
});

test("concurrent create_goal calls with one title get distinct slugs, none fails", async () => {
  const owner = await mcpClient(server.url, await server.ownerToken());
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      owner.callTool({
        name: "create_goal",
        arguments: { title: "Race me", description: "Six goals with one title." },
      }),
    ),
  );
  assert.deepEqual(results.map(errorCode), Array(6).fill(undefined));
  const slugs = results.map((r) => sc<Created>(r).slug).sort();
  assert.deepEqual(slugs, ["race-me", "race-me-2", "race-me-3", "race-me-4", "race-me-5", "race-me-6"]);
});

test("create_goal validation: bounds of the contract, unknown template, nothing created", async () => {
  const owner = await mcpClient(server.url, await server.ownerToken());
  const bad = [
    { title: "ab", description: "long enough description" },
    { title: "fine title", description: "short" },
    { title: "fine title", description: "long enough description", max_spawn_depth: 11 },
    { title: "fine title", description: "long enough description", budget_tokens: -1 },
    { title: "fine title", description: "long enough description", coordinator_config: "nope" },
    { title: "fine title", description: "long enough description", owner: 1 },
  ];
  const token = await server.ownerToken();
  const count = async () =>
    (
      (await (
        await fetch(`${server.url}/api/goals`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as unknown[]
    ).length;
  const before = await count();
  for (const args of bad)
    assert.equal(
      errorCode(await owner.callTool({ name: "create_goal", arguments: args })),
      "invalid_input",
      JSON.stringify(args),
    );
  assert.equal(await count(), before);
});

test("REST: POST /api/goals creates, 422 on bad input; another owner's goal and events are 404", async () => {
  const alice = await server.ownerToken("alice@example.com");
  const bob = await server.ownerToken("bob@example.com");
  const post = (token: string, body: unknown) =>
    fetch(`${server.url}/api/goals`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const res = await post(alice, { title: "Alice goal", description: "Something Alice wants." });
  assert.equal(res.status, 201);
  const goal = (await res.json()) as Created;
  const invalid = await post(alice, { title: "x" });
  assert.equal(invalid.status, 422);
  assert.equal(((await invalid.json()) as { error: { code: string } }).error.code, "invalid_input");
  const huge = await post(alice, { title: "Huge goal", description: "x".repeat(1_100_000) });
  assert.equal(huge.status, 413);
  assert.equal(((await huge.json()) as { error: { code: string } }).error.code, "payload_too_large");

  const events = await fetch(`${server.url}/api/goals/${goal.goal_id}/events?after=0`, {
    headers: { authorization: `Bearer ${alice}` },
  });
  const body = (await events.json()) as { events: { event: string; seq: number }[]; next_cursor: number };
  assert.deepEqual(
    body.events.map((e) => e.event),
    ["goal_created", "agent_registered"],
  );
  assert.equal(body.next_cursor, 2);
  const tail = (await (
    await fetch(`${server.url}/api/goals/${goal.goal_id}/events?after=1`, {
      headers: { authorization: `Bearer ${alice}` },
    })
  ).json()) as { events: { seq: number }[] };
  assert.deepEqual(
    tail.events.map((e) => e.seq),
    [2],
  );

  for (const url of [
    `/api/goals/${goal.goal_id}/events`,
    `/api/goals/${goal.goal_id}/messages`,
    `/api/goals/${goal.goal_id}/stream`,
  ]) {
    const r = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${bob}` } });
    assert.equal(r.status, 404, url);
  }
  const bobList = (await (
    await fetch(`${server.url}/api/goals`, { headers: { authorization: `Bearer ${bob}` } })
  ).json()) as { id: number }[];
  assert.ok(!bobList.some((g) => g.id === goal.goal_id));
  assert.equal((await fetch(`${server.url}/api/goals`)).status, 401);
  // An agent key is not an owner credential.
  const agentKey = await server.cli("agent", "key", String(goal.coordinator_agent_id));
  assert.equal(
    (await fetch(`${server.url}/api/goals`, { headers: { authorization: `Bearer ${agentKey}` } })).status,
    401,
  );
});

test("CLI: results alone on stdout, messages on stderr, non-zero exit on error", async () => {
  const run = promisify(execFile);
  const cli = (...args: string[]) =>
    run(process.execPath, [path.join(ROOT, "bin/switchboard.mjs"), ...args], { cwd: "/", env: server.env });
  const created = await cli(
    "owner",
    "create",
    "--email",
    "carol@example.com",
    "--password",
    "long-password-1",
  );
  assert.deepEqual(Object.keys(JSON.parse(created.stdout)), ["user_id", "email"]);
  const token = await cli("token", "create", "--email", "carol@example.com", "--name", "ci");
  assert.match(token.stdout, /^sb_pat_[A-Za-z0-9_-]{43}\n$/);
  assert.match(token.stderr, /shown only once/);
  const goal = JSON.parse(
    (
      await cli(
        "goal",
        "create",
        "--email",
        "carol@example.com",
        "--title",
        "Carol goal",
        "--description",
        "Described well enough",
      )
    ).stdout,
  ) as Created;
  const agent = JSON.parse(
    (await cli("agent", "create", "--goal", String(goal.goal_id), "--name", "eng")).stdout,
  ) as { agent_id: number; api_key: string };
  assert.match(agent.api_key, /^sb_agent_[A-Za-z0-9_-]{43}$/);
  const key = await cli("agent", "key", String(agent.agent_id));
  assert.match(key.stdout, /^sb_agent_[A-Za-z0-9_-]{43}\n$/);
  const failures: [string[], RegExp][] = [
    [["agent", "create", "--goal", "999999", "--name", "x"], /error: not_found/],
    [["agent", "create", "--goal", String(goal.goal_id), "--name", "eng"], /error: name_taken/],
    [
      ["owner", "create", "--email", "carol@example.com", "--password", "long-password-1"],
      /error: email_taken/,
    ],
    [
      ["goal", "create", "--email", "nobody@example.com", "--title", "t", "--description", "d"],
      /error: not_found/,
    ],
    [["agent", "key", "abc"], /error: .*positive integer/],
  ];
  for (const [args, expected] of failures) {
    await assert.rejects(
      cli(...args),
      (e: { code: number; stdout: string; stderr: string }) => {
        assert.notEqual(e.code, 0);
        assert.equal(e.stdout, "");
        assert.match(e.stderr, expected);
        return true;
      },
      args.join(" "),
    );
  }
});
