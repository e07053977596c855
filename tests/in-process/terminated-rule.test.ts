// "Terminated" in its three forms (lib/domain/agents/terminated.ts) agrees on a real database of the provider
// under test: the row predicate, the Prisma `where` and the SQL condition select the same agents.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { goalWithAgents, type InProcess, startInProcess } from "../helpers/in-process";

let server: InProcess;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startInProcess();
  db = await import("@/lib/db");
});
after(async () => {
  await server?.stop();
});

test("terminated: predicate, Prisma where and SQL condition agree on every combination of the two columns", async () => {
  const { isTerminated, notTerminatedSql, notTerminatedWhere } = await import(
    "@/lib/domain/agents/terminated"
  );
  const g = await goalWithAgents(server, 3);
  const ids = g.agents.map((a) => Number(a.id));
  const states: [string, boolean][] = [
    ["active", false],
    ["active", true],
    ["terminated", false],
    ["terminated", true],
  ];
  await db.write(async (u) => {
    for (const [i, [status, terminateConsumed]] of states.entries())
      await u.db.agent.update({ where: { id: ids[i] }, data: { status, terminateConsumed } });
  });
  const { rows, viaWhere, viaSql } = await db.read(async (u) => ({
    rows: await u.db.agent.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } }),
    viaWhere: await u.db.agent.findMany({
      where: { id: { in: ids }, ...notTerminatedWhere },
      orderBy: { id: "asc" },
    }),
    viaSql: await u.sql.all<{ id: number }>(
      `SELECT a.id FROM "Agent" a WHERE a.id IN (${ids.map(() => "?").join(", ")}) AND ${notTerminatedSql("a")} ORDER BY a.id`,
      ...ids,
    ),
  }));
  const live = rows.filter((r) => !isTerminated(r)).map((r) => r.id);
  assert.deepEqual(live, [ids[0]]);
  assert.deepEqual(
    viaWhere.map((r) => r.id),
    live,
  );
  assert.deepEqual(
    viaSql.map((r) => Number(r.id)),
    live,
  );
});
