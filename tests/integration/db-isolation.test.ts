// The SQLite data-loss trap (docs/development.md), designed out by lib/db: a write acknowledged to one
// request is never rolled back by another request's failing transaction. Runs on both providers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { freshDatabase, providerUnderTest } from "../helpers/server";

const provider = providerUnderTest();
let drop: () => Promise<void>;
let db: typeof import("@/lib/db");

before(async () => {
  const fresh = await freshDatabase(provider);
  drop = fresh.drop;
  process.env.DATABASE_URL = fresh.url;
  db = await import("@/lib/db");
});

after(async () => {
  await db.disconnect();
  await drop();
});

const skillRow = (name: string) => ({ name, description: "d", systemPrompt: "p", scope: "test" });

test(`${provider}: a failing transaction does not take another request's acknowledged write with it`, async () => {
  let releaseFailing!: () => void;
  const failingMayFinish = new Promise<void>((r) => {
    releaseFailing = r;
  });
  // Request A: writes, then waits (as a handler awaiting something would), then fails.
  const failing = db.write(async ({ db: tx }) => {
    await tx.skill.create({ data: skillRow("from-failing-request") });
    await failingMayFinish;
    throw new Error("request A failed");
  });
  // Request B: a plain write while A's transaction is open. Its acknowledgement must be durable.
  const acknowledged = db.write(({ db: tx }) => tx.skill.create({ data: skillRow("acknowledged-write") }));
  setTimeout(releaseFailing, 50);
  await assert.rejects(failing, /request A failed/);
  const b = await acknowledged;
  assert.equal(b.name, "acknowledged-write");
  const names = await db.read(async ({ db: tx }) => (await tx.skill.findMany()).map((s) => s.name));
  assert.deepEqual(names, ["acknowledged-write"]);
});

test(`${provider}: reads never see another unit's uncommitted writes`, async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const failing = db.write(async ({ db: tx }) => {
    await tx.skill.create({ data: skillRow("uncommitted") });
    await gate;
    throw new Error("rolled back");
  });
  const seen = db.read(({ db: tx }) => tx.skill.findFirst({ where: { name: "uncommitted" } }));
  setTimeout(release, 30);
  await assert.rejects(failing);
  assert.equal(await seen, null);
});

test(`${provider}: 200 concurrent writes, a third of them failing, keep exactly the acknowledged ones`, async () => {
  const results = await Promise.allSettled(
    Array.from({ length: 200 }, (_, i) =>
      db.write(async ({ db: tx }) => {
        await tx.skill.create({ data: skillRow(`bulk-${i}`) });
        await new Promise((r) => setTimeout(r, i % 5));
        if (i % 3 === 0) throw new Error("fail");
        return `bulk-${i}`;
      }),
    ),
  );
  const acked = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const stored = await db.read(async ({ db: tx }) =>
    (await tx.skill.findMany({ where: { name: { startsWith: "bulk-" } } })).map((s) => s.name),
  );
  assert.equal(acked.length, 133);
  assert.deepEqual(new Set(stored), new Set(acked));
});

test(`${provider}: when SQLite abandons a transaction, none of the units in it is acknowledged`, {
  skip: provider !== "sqlite" && "group commit is SQLite's",
}, async () => {
  // Three writes reach the queue in one turn, so they share one transaction (group commit). The second
  // ends that transaction under the others' feet, as an I/O error or a full disk would.
  const names = ["mate-before", "aborter", "mate-after"];
  const results = await Promise.allSettled(
    names.map((name) =>
      db.write(async ({ db: tx, sql }) => {
        await tx.skill.create({ data: skillRow(name) });
        if (name === "aborter") await sql.run("ROLLBACK");
        return name;
      }),
    ),
  );
  const stored = await db.read(async ({ db: tx }) =>
    (await tx.skill.findMany({ where: { name: { in: names } } })).map((s) => s.name),
  );
  const acked = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  assert.deepEqual(
    results.slice(0, 2).map((r) => r.status),
    ["rejected", "rejected"],
    "neither the aborting unit nor its batch-mate before it is acknowledged",
  );
  assert.deepEqual(new Set(stored), new Set(acked), "exactly the acknowledged writes are stored");
  // The queue carries on with a fresh transaction.
  assert.equal(
    await db.write(({ db: tx }) => tx.skill.create({ data: skillRow("after-abort") })).then((s) => s.name),
    "after-abort",
  );
});

test(`${provider}: when a failed unit cannot be rolled back alone, nothing of its transaction commits`, {
  skip: provider !== "sqlite" && "group commit (savepoints per unit) is SQLite's",
}, async () => {
  // The middle unit releases its own savepoint and then fails: ROLLBACK TO has nothing to roll back to, so
  // its write cannot be undone alone. The whole batch must fail rather than commit that write.
  const names = ["undo-before", "releaser", "undo-after"];
  const results = await Promise.allSettled(
    names.map((name) =>
      db.write(async ({ db: tx, sql }) => {
        await tx.skill.create({ data: skillRow(name) });
        if (name === "releaser") {
          await sql.run("RELEASE unit");
          throw new Error("fails after its savepoint is gone");
        }
        return name;
      }),
    ),
  );
  const stored = await db.read(async ({ db: tx }) =>
    (await tx.skill.findMany({ where: { name: { in: names } } })).map((s) => s.name),
  );
  const acked = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  assert.ok(!stored.includes("releaser"), "the failed unit's write never commits");
  assert.deepEqual(new Set(stored), new Set(acked), "exactly the acknowledged writes are stored");
  assert.equal(
    await db.write(({ db: tx }) => tx.skill.create({ data: skillRow("after-undo") })).then((s) => s.name),
    "after-undo",
  );
});

test(`${provider}: a read never returns before the writes it could see have committed`, {
  skip: provider !== "sqlite" && "PostgreSQL reads run beside writes and see only committed rows",
}, async () => {
  // The write and the read reach the queue in one turn; the read runs after the write (same connection,
  // possibly inside the open transaction) and must not return until that write is durable.
  const order: string[] = [];
  const written = db
    .write(({ db: tx }) => tx.skill.create({ data: skillRow("seen-by-read") }))
    .then(() => order.push("write acknowledged"));
  const seen = db
    .read(({ db: tx }) => tx.skill.findFirst({ where: { name: "seen-by-read" } }))
    .then((row) => {
      order.push("read returned");
      return row;
    });
  await Promise.all([written, seen]);
  assert.equal((await seen)?.name, "seen-by-read");
  assert.deepEqual(order, ["write acknowledged", "read returned"]);
});
