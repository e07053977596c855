// The unit-of-work rules of lib/db (docs/database.md), in-process against both providers: after-commit
// effects run only once their unit has committed, a slow unit is logged with its name, and the plan files
// of declare_plan / remove_plan follow the database (a failed unit or group commit leaves no file).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { freshDatabase, providerUnderTest } from "../helpers/server";

const provider = providerUnderTest();
const sqliteOnly = { skip: provider !== "sqlite" && "group commit is SQLite's" };
let drop: () => Promise<void>;
let url: string;
let dataDir: string;
let db: typeof import("@/lib/db");
let plans: {
  declarePlan: typeof import("@/lib/domain/plans/declare-plan").declarePlan;
  removePlan: typeof import("@/lib/domain/plans/remove-plan").removePlan;
  updatePlanTask: typeof import("@/lib/domain/plans/update-plan-task").updatePlanTask;
};

before(async () => {
  const fresh = await freshDatabase(provider);
  drop = fresh.drop;
  url = fresh.url;
  dataDir = path.join(fresh.dir, "data");
  process.env.DATABASE_URL = fresh.url;
  process.env.SWITCHBOARD_DATA_DIR = dataDir;
  process.env.SWITCHBOARD_SLOW_UNIT_MS = "25";
  db = await import("@/lib/db");
  const [declare, remove, update, skills] = await Promise.all([
    import("@/lib/domain/plans/declare-plan"),
    import("@/lib/domain/plans/remove-plan"),
    import("@/lib/domain/plans/update-plan-task"),
    import("@/lib/domain/skills/skills"),
  ]);
  plans = {
    declarePlan: declare.declarePlan,
    removePlan: remove.removePlan,
    updatePlanTask: update.updatePlanTask,
  };
  await skills.seedBuiltinSkills();
});

after(async () => {
  await db.disconnect();
  await drop();
});

const skillRow = (name: string) => ({ name, description: "d", systemPrompt: "p", scope: "test" });

/** Whether a skill row is visible from a connection of its own (so: committed). */
async function committedElsewhere(name: string): Promise<boolean> {
  if (provider === "sqlite") {
    const other = new Database(url.replace(/^file:/, ""), { readonly: true });
    try {
      return other.prepare(`SELECT 1 FROM "Skill" WHERE name = ?`).get(name) !== undefined;
    } finally {
      other.close();
    }
  }
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    return (await other.query(`SELECT 1 FROM "Skill" WHERE name = $1`, [name])).rowCount === 1;
  } finally {
    await other.end();
  }
}

/** The JSON lines written to stderr while `fn` runs (lib/log writes there). */
async function stderrLines(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const original = process.stderr.write.bind(process.stderr);
  let out = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    await fn();
  } finally {
    process.stderr.write = original;
  }
  return out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // hold the unit
  }
};

test(`${provider}: a unit that registers an effect and then fails runs no effect`, async () => {
  let ran = false;
  await assert.rejects(
    db.write(async (u) => {
      await u.db.skill.create({ data: skillRow("effect-then-fail") });
      u.afterCommit(() => {
        ran = true;
      });
      throw new Error("unit failed");
    }),
    /unit failed/,
  );
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(ran, false);
  assert.equal(await committedElsewhere("effect-then-fail"), false);
});

test(`${provider}: a committed unit's effect runs after the commit, before write() resolves`, async () => {
  const seen: { elsewhere?: boolean; read?: string | null } = {};
  const order: string[] = [];
  const result = await db.write(async (u) => {
    await u.db.skill.create({ data: skillRow("effect-after-commit") });
    u.afterCommit(async () => {
      seen.elsewhere = await committedElsewhere("effect-after-commit");
      seen.read = (
        await db.read((r) => r.db.skill.findFirst({ where: { name: "effect-after-commit" } }))
      )?.name;
      order.push("effect");
    });
    return "unit result";
  });
  order.push("resolved");
  assert.equal(result, "unit result");
  assert.deepEqual(seen, { elsewhere: true, read: "effect-after-commit" });
  assert.deepEqual(order, ["effect", "resolved"]);
});

test(`${provider}: an effect that throws is logged; the committed unit still succeeds`, async () => {
  let result: string | undefined;
  const lines = await stderrLines(async () => {
    result = await db.write(async (u) => {
      await u.db.skill.create({ data: skillRow("effect-throws") });
      u.afterCommit(() => {
        throw new Error("effect broke");
      });
      return "committed";
    }, "test.effect-throws");
  });
  assert.equal(result, "committed");
  assert.equal(await committedElsewhere("effect-throws"), true);
  const line = lines.find((l) => l.msg === "after-commit effect failed");
  assert.ok(line, "the failure is logged");
  assert.equal(line.level, "error");
  assert.equal(line.unit, "test.effect-throws");
  assert.match(String((line.err as { message?: string }).message), /effect broke/);
});

test(
  `${provider}: when SQLite abandons a transaction, none of its units' effects runs`,
  sqliteOnly,
  async () => {
    const names = ["fx-mate-before", "fx-aborter", "fx-mate-after"];
    const ran: string[] = [];
    const results = await Promise.allSettled(
      names.map((name) =>
        db.write(async (u) => {
          await u.db.skill.create({ data: skillRow(name) });
          u.afterCommit(() => void ran.push(name));
          if (name === "fx-aborter") await u.sql.run("ROLLBACK");
          return name;
        }),
      ),
    );
    const acked = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    assert.deepEqual(
      results.slice(0, 2).map((r) => r.status),
      ["rejected", "rejected"],
    );
    assert.deepEqual(ran, acked, "exactly the acknowledged units ran their effects");
  },
);

test(
  `${provider}: when the group commit's COMMIT fails, none of its units' effects runs`,
  sqliteOnly,
  async () => {
    // A deferred foreign key is checked at COMMIT: the batch's COMMIT fails, after every unit in it succeeded.
    const ran: string[] = [];
    const results = await Promise.allSettled([
      db.write(async (u) => {
        await u.db.skill.create({ data: skillRow("commit-mate") });
        u.afterCommit(() => void ran.push("commit-mate"));
      }),
      db.write(async (u) => {
        await u.sql.run("PRAGMA defer_foreign_keys = ON");
        await u.sql.run(
          `INSERT INTO "PlanTask" ("planId", key, role, skill, task, status, position) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          "no-such-plan",
          "t1",
          "r",
          "engineer",
          "t",
          "ready",
          0,
        );
        u.afterCommit(() => void ran.push("commit-breaker"));
      }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected"],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.deepEqual(ran, []);
    assert.equal(await committedElsewhere("commit-mate"), false);
    // The queue carries on.
    await db.write((u) => u.db.skill.create({ data: skillRow("after-failed-commit") }));
    assert.equal(await committedElsewhere("after-failed-commit"), true);
  },
);

test(`${provider}: a unit that holds the database past SWITCHBOARD_SLOW_UNIT_MS is logged with its name`, async () => {
  const lines = await stderrLines(async () => {
    await db.write(async (u) => {
      await u.db.skill.findMany({ take: 1 });
      busyWait(60);
    }, "test.named-write");
    // Named by the surface's label (an MCP tool, a REST route), without touching the call.
    await db.withUnitName("test_tool", () =>
      db.read(async (u) => {
        await u.db.skill.findMany({ take: 1 });
        busyWait(60);
      }),
    );
  });
  const slow = lines.filter((l) => l.level === "warn" && typeof l.unit === "string");
  const named = slow.find((l) => l.unit === "test.named-write");
  assert.ok(named, `a warn line names the unit: ${JSON.stringify(lines)}`);
  assert.equal(named.kind, "write");
  assert.ok(Number(named.ms) >= 60, `its duration: ${named.ms}`);
  const labelled = slow.find((l) => l.unit === "test_tool");
  assert.ok(labelled, "the surface's label names the unit");
  assert.equal(labelled.kind, "read");
});

// --- Plan files -------------------------------------------------------------------------------------

let agentSeq = 0;
/** A goal and an agent of it (the plan's leader). */
async function leader(): Promise<{ agentId: number; goalId: number }> {
  const n = ++agentSeq;
  return db.write(async (u) => {
    const owner = await u.db.user.create({ data: { email: `owner${n}@example.com`, passwordHash: "x" } });
    const goal = await u.db.goal.create({
      data: { slug: `goal-${n}`, title: "g", description: "d", ownerId: owner.id },
    });
    const agent = await u.db.agent.create({ data: { goalId: goal.id, name: "lead", role: "leader" } });
    return { agentId: agent.id, goalId: goal.id };
  });
}

const planInput = {
  tasks: [
    { id: "a", role: "A", skill: "engineer", task: "do a", description: "", depends_on: [] },
    { id: "b", role: "B", skill: "engineer", task: "do b", description: "", depends_on: ["a"] },
  ],
};

const planFiles = () => {
  const dir = path.join(dataDir, "plans");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

test(`${provider}: declare_plan's file exists once it returns, and remove_plan renames it`, async () => {
  const caller = await leader();
  const before = planFiles();
  const declared = await plans.declarePlan(caller, planInput);
  assert.ok(fs.existsSync(declared.plan_path));
  const doc = JSON.parse(fs.readFileSync(declared.plan_path, "utf8")) as { tasks: { status: string }[] };
  assert.deepEqual(
    doc.tasks.map((t) => t.status),
    ["ready", "blocked"],
  );
  await plans.updatePlanTask(caller, { task_id: "a", status: "done" });
  const updated = JSON.parse(fs.readFileSync(declared.plan_path, "utf8")) as { tasks: { status: string }[] };
  assert.deepEqual(
    updated.tasks.map((t) => t.status),
    ["done", "ready"],
    "update_plan_task rewrote the file after its commit",
  );
  await plans.removePlan(caller);
  assert.equal(fs.existsSync(declared.plan_path), false);
  assert.ok(fs.existsSync(declared.plan_path.replace(/\.json$/, ".removed.json")));
  assert.equal(planFiles().length, before.length + 1, "no staging file is left");
});

test(`${provider}: two concurrent declare_plan calls: one wins, the loser leaves no file`, async () => {
  const caller = await leader();
  const before = planFiles();
  const results = await Promise.allSettled([
    plans.declarePlan(caller, planInput),
    plans.declarePlan(caller, planInput),
  ]);
  const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  assert.equal(won.length, 1);
  const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  assert.equal((lost.reason as { code?: string }).code, "plan_already_declared");
  const added = planFiles().filter((f) => !before.includes(f));
  assert.deepEqual(added, [path.basename(won[0]?.plan_path ?? "")]);
});

test(
  `${provider}: a declare_plan whose group commit fails leaves no file and no plan`,
  sqliteOnly,
  async () => {
    const caller = await leader();
    const before = planFiles();
    // The plan's unit and a batch-mate that abandons the transaction reach the queue in the same turn.
    const results = await Promise.allSettled([
      plans.declarePlan(caller, planInput),
      db.write(async (u) => {
        await u.sql.run("ROLLBACK");
      }),
    ]);
    assert.equal(results[0]?.status, "rejected");
    assert.deepEqual(planFiles(), before, "neither the plan file nor its staging file");
    const agent = await db.read((u) => u.db.agent.findUnique({ where: { id: caller.agentId } }));
    assert.equal(agent?.activePlanId, null);
    // The leader can declare again.
    const declared = await plans.declarePlan(caller, planInput);
    assert.ok(fs.existsSync(declared.plan_path));
  },
);

test(`${provider}: a remove_plan whose group commit fails leaves the file in place`, sqliteOnly, async () => {
  const caller = await leader();
  const declared = await plans.declarePlan(caller, planInput);
  const results = await Promise.allSettled([
    plans.removePlan(caller),
    db.write(async (u) => {
      await u.sql.run("ROLLBACK");
    }),
  ]);
  assert.equal(results[0]?.status, "rejected");
  assert.ok(fs.existsSync(declared.plan_path), "the plan file keeps its name");
  assert.equal(fs.existsSync(declared.plan_path.replace(/\.json$/, ".removed.json")), false);
});

// issue 15: on PostgreSQL `u.sql` runs on the unit's own connection and Prisma joins that transaction
// on first use of `u.db`; both must commit or roll back as one, on both providers.
const insertSkill = (u: import("@/lib/db").Unit, name: string) =>
  u.sql.run(
    `INSERT INTO "Skill" (name, description, "systemPrompt", scope, "createdAt", "updatedAt") VALUES (?, 'd', 'p', 'test', ?, ?)`,
    name,
    new Date(),
    new Date(),
  );

test(`${provider}: u.sql and u.db in one unit see each other and commit or roll back together`, async () => {
  await assert.rejects(
    db.write(async (u) => {
      await insertSkill(u, "mixed-sql-fail");
      await u.db.skill.create({ data: skillRow("mixed-db-fail") });
      const seen = await u.db.skill.findFirst({ where: { name: "mixed-sql-fail" } });
      assert.equal(seen?.name, "mixed-sql-fail", "Prisma sees the unit's own SQL write");
      throw new Error("unit failed");
    }),
    /unit failed/,
  );
  assert.equal(await committedElsewhere("mixed-sql-fail"), false);
  assert.equal(await committedElsewhere("mixed-db-fail"), false);

  const names = await db.write(async (u) => {
    await u.db.skill.create({ data: skillRow("mixed-db-ok") });
    await insertSkill(u, "mixed-sql-ok");
    const rows = await u.sql.all<{ name: string }>(
      `SELECT name FROM "Skill" WHERE name IN (?, ?) ORDER BY name`,
      "mixed-db-ok",
      "mixed-sql-ok",
    );
    return rows.map((r) => r.name);
  });
  assert.deepEqual(names, ["mixed-db-ok", "mixed-sql-ok"], "SQL sees the unit's own Prisma write");
  assert.equal(await committedElsewhere("mixed-db-ok"), true);
  assert.equal(await committedElsewhere("mixed-sql-ok"), true);
});

test(`${provider}: statements issued together run in the order issued, and a failure among them fails the unit`, async () => {
  const rows = await db.write(async (u) => {
    const insert = (name: string) => insertSkill(u, name);
    const [, , seen] = await Promise.all([
      insert("together-1"),
      insert("together-2"),
      u.sql.all<{ name: string }>(`SELECT name FROM "Skill" WHERE name LIKE 'together-%' ORDER BY name`),
    ]);
    return seen.map((r) => r.name);
  });
  assert.deepEqual(rows, ["together-1", "together-2"]);
  await assert.rejects(
    db.write(async (u) => {
      const insert = (name: string) => insertSkill(u, name);
      await Promise.all([insert("together-3"), insert("together-1"), insert("together-4")]);
    }),
  );
  assert.equal(await committedElsewhere("together-3"), false);
  assert.equal(await committedElsewhere("together-4"), false);
});

test(`${provider}: a topic wakes its waiters only once the unit has committed, and a failed unit's never`, async () => {
  const { subscribe } = await import("@/lib/bus");
  const wakes: boolean[] = [];
  const checks: Promise<void>[] = [];
  const off = subscribe("test:wake-after-commit", () => {
    checks.push(committedElsewhere("wake-after-commit").then((v) => void wakes.push(v)));
  });
  try {
    await assert.rejects(
      db.write(async (u) => {
        u.notify("test:wake-after-commit");
        throw new Error("unit failed");
      }),
    );
    await db.write(async (u) => {
      u.notify("test:wake-after-commit");
      await u.db.skill.create({ data: skillRow("wake-after-commit") });
      await new Promise((r) => setTimeout(r, 50)); // a woken waiter would look now
    });
    for (let i = 0; i < 100 && checks.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await Promise.all(checks);
    assert.deepEqual(wakes, [true], "one wake-up, after the commit");
  } finally {
    off();
  }
});

test(`${provider}: a unit's atCommit statement runs last, and its failure fails the unit`, async () => {
  await db.write(async (u) => {
    u.atCommit(`UPDATE "Skill" SET description = 'last' WHERE name = ?`, "at-commit-ok");
    await insertSkill(u, "at-commit-ok");
  });
  const row = await db.read((r) =>
    r.sql.get<{ description: string }>(`SELECT description FROM "Skill" WHERE name = ?`, "at-commit-ok"),
  );
  assert.equal(row?.description, "last", "it ran after the unit's own statements");
  let effect = false;
  await assert.rejects(
    db.write(async (u) => {
      await insertSkill(u, "at-commit-fail");
      u.atCommit(`UPDATE "Skill" SET description = NULL WHERE name = ?`, "at-commit-fail"); // NOT NULL
      u.afterCommit(() => {
        effect = true;
      });
    }),
  );
  assert.equal(await committedElsewhere("at-commit-fail"), false);
  assert.equal(effect, false);
});
