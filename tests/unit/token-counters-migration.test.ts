// The token_counters_bigint migration (issue 12, docs/budgets.md "Limits") on a database with data, SQLite:
// the migration rebuilds Goal, GoalTask and the three roll-up tables (new_X, copy, drop, rename); every row
// keeps its values, ids and indexes, foreign keys still hold, and counters past 2^31 are stored exactly.
// (PostgreSQL's migration is `ALTER COLUMN … SET DATA TYPE BIGINT`, which converts in place.)
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import test from "node:test";
import Database from "better-sqlite3";
import { ROOT } from "../helpers/server";

const DIR = path.join(ROOT, "prisma/migrations/sqlite");
const TARGET = "token_counters_bigint";

test("sqlite: token_counters_bigint keeps every goal, task and roll-up row with its values", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-bigint-mig-")), "db.sqlite");
  const d = new Database(file);
  const dirs = fs
    .readdirSync(DIR)
    .filter((n) => fs.statSync(path.join(DIR, n)).isDirectory())
    .sort();
  const at = dirs.findIndex((n) => n.endsWith(`_${TARGET}`));
  assert.ok(at > 0, "the migration exists");
  const run = (n: string) => {
    d.pragma("foreign_keys = OFF");
    d.exec(fs.readFileSync(path.join(DIR, n, "migration.sql"), "utf8"));
  };
  for (const n of dirs.slice(0, at)) run(n);
  const t0 = 1_700_000_000_000;
  d.prepare(`INSERT INTO "User" (id, email, "passwordHash", "createdAt") VALUES (7, 'op@x', 'x', ?)`).run(t0);
  d.prepare(
    `INSERT INTO "Goal" (id, slug, title, description, status, "ownerId", "budgetCents", "budgetTokens", "spentCents",
       "spentTokens", "spentMicros", "pausedReason", "updatedAt") VALUES (3, 'g', 'G', 'd', 'paused', 7, 500, 2000000000, 499, 1999999999, 42, 'budget', ?)`,
  ).run(t0);
  d.prepare(
    `INSERT INTO "GoalTask" (id, "goalId", title, description, "budgetTokens", "spentCents", "spentTokens", "spentMicros", "updatedAt")
     VALUES (11, 3, 'T', 'd', 1500000000, 12, 1234567890, 5, ?)`,
  ).run(t0);
  d.prepare(
    `INSERT INTO "GoalTask" (id, "goalId", "parentId", title, description, "updatedAt") VALUES (12, 3, 11, 'C', 'd', ?)`,
  ).run(t0);
  for (const [table, col] of [
    ["UsageBucket", "hour"],
    ["UsageDay", "day"],
  ] as const) {
    d.prepare(
      `INSERT INTO "${table}" (id, "goalId", ${col}, "agentId", "taskId", "billingCode", model, "billingType", reports,
         "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros)
       VALUES (5, 3, ?, 9, 11, 'code', 'm', 'api', 4, 100, 200, 300, 400, 1000, 6, 7)`,
    ).run(t0);
  }
  d.prepare(
    `INSERT INTO "UsageGoalHour" (id, "goalId", hour, "billingType", reports, "inputTokens", "outputTokens",
       "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros) VALUES (8, 3, ?, 'subscription', 4, 100, 200, 300, 400, 1000, 6, 7)`,
  ).run(t0);
  const snapshot = () => ({
    goal: d
      .prepare(
        `SELECT id, slug, status, "budgetCents", "budgetTokens", "spentCents", "spentTokens", "spentMicros", "pausedReason" FROM "Goal"`,
      )
      .all(),
    tasks: d
      .prepare(
        `SELECT id, "goalId", "parentId", "budgetTokens", "spentCents", "spentTokens", "spentMicros" FROM "GoalTask" ORDER BY id`,
      )
      .all(),
    buckets: ["UsageBucket", "UsageDay", "UsageGoalHour"].map((t) =>
      d
        .prepare(
          `SELECT id, "goalId", reports, "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", tokens, cents, micros FROM "${t}"`,
        )
        .all(),
    ),
  });
  const before = snapshot();
  run(dirs[at] as string);
  for (const n of dirs.slice(at + 1)) run(n);
  assert.deepEqual(snapshot(), before);
  d.pragma("foreign_keys = ON");
  assert.deepEqual(d.pragma("foreign_key_check"), []);
  // The unique keys survived the rebuild.
  assert.throws(
    () =>
      d
        .prepare(`INSERT INTO "UsageGoalHour" ("goalId", hour, "billingType") VALUES (3, ?, 'subscription')`)
        .run(t0),
    /UNIQUE/,
  );
  assert.throws(
    () =>
      d
        .prepare(
          `INSERT INTO "Goal" (slug, title, description, "ownerId", "updatedAt") VALUES ('g', 'x', 'd', 7, ?)`,
        )
        .run(t0),
    /UNIQUE/,
  );
  // Past 2^31, exactly (the values a real goal's cached tokens reach).
  d.prepare(`UPDATE "Goal" SET "spentTokens" = "spentTokens" + 3000000000 WHERE id = 3`).run();
  d.prepare(`UPDATE "UsageGoalHour" SET tokens = tokens + 4000000000 WHERE id = 8`).run();
  assert.deepEqual(
    [
      d.prepare(`SELECT "spentTokens" AS v FROM "Goal" WHERE id = 3`).get(),
      d.prepare(`SELECT tokens AS v FROM "UsageGoalHour" WHERE id = 8`).get(),
    ],
    [{ v: 4_999_999_999 }, { v: 4_000_001_000 }],
  );
  d.close();
});
