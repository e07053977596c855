// The unit's `Db` type refuses, at compile time, what Prisma can only do in a transaction of its own, which
// the SQLite path refuses at run time (docs/database.md). The checks are the `@ts-expect-error` lines: if
// `Db` ever allowed one of these forms again, the directive would be unused and `npx tsc --noEmit` (run by
// `npm test`) would fail. The runtime test only checks that this file is part of the type-check.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Db, ReadUnit, Unit } from "@/lib/db";

const skill = { name: "s", description: "d", systemPrompt: "p", scope: "builtin" };

// Never called: type-checked only.
export async function forbiddenForms(db: Db) {
  // @ts-expect-error upsert is not on the unit's delegates
  await db.skill.upsert({ where: { id: 1 }, create: skill, update: {} });
  // @ts-expect-error a nested create (a relation field in data)
  await db.plan.create({ data: { id: "p", goalId: 1, leaderId: 1, path: "/p", tasks: { create: [] } } });
  await db.plan.create({
    // @ts-expect-error connect is a nested write too
    data: { id: "p", goal: { connect: { id: 1 } }, leaderId: 1, path: "/p" },
  });
  // @ts-expect-error a nested write in update
  await db.plan.update({ where: { id: "p" }, data: { tasks: { deleteMany: {} } } });
  // @ts-expect-error a write that returns relations (include)
  await db.plan.create({ data: { id: "p", goalId: 1, leaderId: 1, path: "/p" }, include: { tasks: true } });
  // @ts-expect-error a write that selects a relation
  await db.plan.delete({ where: { id: "p" }, select: { id: true, goal: true } });
  // @ts-expect-error a write that counts relations
  await db.plan.update({ where: { id: "p" }, data: { path: "/q" }, select: { _count: true } });
  // @ts-expect-error Prisma's own transactions
  await db.$transaction([]);
  // @ts-expect-error an unknown field is still refused (Exact), as Prisma's own signature does
  await db.skill.create({ data: { ...skill, nope: 1 } });
}

// Never called: what stays allowed compiles, with Prisma's result types.
export async function allowedForms(u: Unit, r: ReadUnit) {
  const created = await u.db.skill.create({ data: skill });
  const name: string = created.name;
  const picked = await u.db.plan.update({ where: { id: "p" }, data: { path: "/q" }, select: { id: true } });
  const id: string = picked.id;
  // @ts-expect-error select narrows the result as before
  void picked.path;
  const n: number = (await u.db.planTask.createMany({ data: [] })).count;
  const withTasks = await r.db.plan.findMany({ include: { tasks: true } }); // reads may include relations
  const keys: string[] = withTasks.flatMap((p) => p.tasks.map((t) => t.key));
  u.afterCommit(() => undefined);
  // @ts-expect-error a read unit has no after-commit effects
  r.afterCommit(() => undefined);
  return { name, id, n, keys };
}

test("the Db type checks live in this file and run with tsc --noEmit", () => {
  assert.equal(typeof forbiddenForms, "function");
  assert.equal(typeof allowedForms, "function");
});
