// The skill_owners migration (issue 16 §2) on a database with data, SQLite: pristine built-ins stay shared
// built-ins; an edited built-in and every owner-made skill go to the first owner (the operator); the seed
// then puts the pristine built-in back for everyone else.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import test from "node:test";
import Database from "better-sqlite3";
import { ROOT } from "../helpers/server";

const DIR = path.join(ROOT, "prisma/migrations/sqlite");
const TARGET = "skill_owners";

test("sqlite: skill_owners assigns owner-made and edited skills to the first owner, keeps pristine built-ins", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-skill-mig-")), "db.sqlite");
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
  d.prepare(`INSERT INTO "User" (id, email, "passwordHash", "createdAt") VALUES (?, ?, 'x', ?)`).run(
    7,
    "op@x",
    t0,
  );
  d.prepare(`INSERT INTO "User" (id, email, "passwordHash", "createdAt") VALUES (?, ?, 'x', ?)`).run(
    9,
    "b@x",
    t0,
  );
  const skill = d.prepare(
    `INSERT INTO "Skill" (name, description, "systemPrompt", builtin, "createdAt", "updatedAt") VALUES (?, 'd', ?, ?, ?, ?)`,
  );
  skill.run("engineer", "pristine", 1, t0, t0);
  skill.run("reviewer", "edited by someone", 1, t0, t0 + 5000);
  skill.run("frontend", "owner-made", 0, t0, t0 + 10);
  run(dirs[at] as string);
  for (const n of dirs.slice(at + 1)) run(n);
  const rows = d
    .prepare(`SELECT name, "systemPrompt" AS p, builtin, "ownerId", scope FROM "Skill" ORDER BY name`)
    .all();
  assert.deepEqual(rows, [
    { name: "engineer", p: "pristine", builtin: 1, ownerId: null, scope: "builtin" },
    { name: "frontend", p: "owner-made", builtin: 0, ownerId: 7, scope: "owner:7" },
    { name: "reviewer", p: "edited by someone", builtin: 0, ownerId: 7, scope: "owner:7" },
  ]);
  // The unique key: a name once per owner and once among built-ins.
  const add = d.prepare(
    `INSERT INTO "Skill" (name, description, "systemPrompt", builtin, "ownerId", scope, "createdAt", "updatedAt") VALUES (?, 'd', 'p', ?, ?, ?, ?, ?)`,
  );
  add.run("reviewer", 1, null, "builtin", t0, t0); // the seed's pristine built-in comes back
  add.run("frontend", 0, 9, "owner:9", t0, t0); // another owner, same name
  assert.throws(() => add.run("engineer", 1, null, "builtin", t0, t0), /UNIQUE/);
  assert.throws(() => add.run("frontend", 0, 7, "owner:7", t0, t0), /UNIQUE/);
  d.close();
});
