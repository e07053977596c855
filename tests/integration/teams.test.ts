// Agent teams over HTTP, where two server processes matter: the spawn lock holds across instances.
// Everything else about teams runs in process: tests/in-process/teams.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, mcpClient, sc, startServer, type TestServer } from "../helpers/server";
import { call, events, goalWithCoordinator, task } from "../helpers/teams";

let server: TestServer;
let db: typeof import("@/lib/db") | undefined;
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_SPAWN_HOLD_MS: "150" } });
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

test("spawn lock: concurrent spawn_agent calls of one leader, through two server instances, never spawn a task twice", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  // Half of the calls go through a second server process on the same database: the lock holds across instances.
  const other = await startServer({
    env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_SPAWN_HOLD_MS: "150" },
    shareDatabaseWith: server,
  });
  const clients = [c.client, await mcpClient(other.url, await server.cli("agent", "key", c.id))];
  await call(c, "declare_plan", { tasks: ["s1", "s2", "s3", "s4", "s5", "s6"].map((id) => task(id)) });
  const seen = new Set<string>();
  let refused = 0;
  for (let round = 0; round < 4 && seen.size < 6; round++) {
    const ids = ["s1", "s2", "s3", "s4", "s5", "s6", "s1", "s2"];
    const results = await Promise.all(
      ids.map((task_id, i) =>
        (clients[i % 2] ?? c.client).callTool({ name: "spawn_agent", arguments: { task_id } }),
      ),
    );
    for (const r of results) {
      const code = errorCode(r);
      if (code === undefined) {
        const t = sc<{ task_id: string }>(r).task_id;
        assert.ok(!seen.has(t), `${t} spawned twice`);
        seen.add(t);
      } else {
        assert.ok(code === "concurrent_spawn" || code === "task_not_pending", code);
        if (code === "concurrent_spawn") refused++;
      }
    }
  }
  assert.ok(refused > 0, "concurrent calls were refused with concurrent_spawn");
  const spawned = (await events(server, token, goal.goal_id)).filter((e) => e.event === "task_spawned");
  assert.equal(spawned.length, seen.size);
  assert.equal(new Set(spawned.map((e) => e.data.task_id)).size, spawned.length);
  assert.equal(
    (await events(server, token, goal.goal_id)).filter((e) => e.event === "team_created").length,
    1,
  );
  await other.stop();
});
