import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, isPostgres } from "@/lib/env";

/**
 * Applies the committed migrations (`prisma/migrations/<provider>/<name>/migration.sql`) in order,
 * each in its own transaction, recorded in `_prisma_migrations` the way Prisma records them, so
 * `prisma migrate status` agrees. No schema engine and no network are needed: the engine is only used
 * to *create* migrations (`npm run db:migration`). Safe to call from several processes at once.
 */
export type MigrationResult = { applied: string[]; provider: "sqlite" | "postgres" };

const MIGRATIONS_TABLE = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
  postgres: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
};

/** Arbitrary constant: the PostgreSQL advisory lock key that serializes migrators. */
const PG_MIGRATION_LOCK = 0x5b0a2d;

export function migrationsDir(provider: "sqlite" | "postgres"): string {
  // The CLI sets SWITCHBOARD_APP_DIR so it works from any directory; the server runs in the app's root.
  return path.join(env().SWITCHBOARD_APP_DIR ?? process.cwd(), "prisma", "migrations", provider);
}

function pendingFrom(provider: "sqlite" | "postgres", applied: Set<string>) {
  const dir = migrationsDir(provider);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !applied.has(d.name))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** `file:./data/x.db` → absolute path (relative paths resolve against the working directory). */
export function sqliteFile(url: string): string {
  return path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, ""));
}

export async function migrate(url: string): Promise<MigrationResult> {
  return isPostgres(url) ? migratePostgres(url) : migrateSqlite(url);
}

async function migrateSqlite(url: string): Promise<MigrationResult> {
  const { default: Database } = await import("better-sqlite3");
  const file = sqliteFile(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 10000");
    db.pragma("journal_mode = WAL");
    db.exec(MIGRATIONS_TABLE.sqlite);
    const applied: string[] = [];
    // One IMMEDIATE transaction per migration: a concurrent migrator waits, then sees it applied.
    for (;;) {
      const done = new Set(
        (
          db
            .prepare(`SELECT migration_name FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`)
            .all() as { migration_name: string }[]
        ).map((r) => r.migration_name),
      );
      const next = pendingFrom("sqlite", done)[0];
      if (!next) break;
      // Prisma's SQLite table rebuilds (DROP + rename) rely on foreign keys being off, and that pragma is
      // ignored inside a transaction: switch it off first, or the DROP cascades and deletes child rows.
      db.pragma("foreign_keys = OFF");
      db.exec("BEGIN IMMEDIATE");
      try {
        const again = db
          .prepare(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND rolled_back_at IS NULL`)
          .get(next.name);
        if (!again) {
          db.exec(next.sql);
          db.prepare(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
             VALUES (?, ?, current_timestamp, ?, 1)`,
          ).run(randomUUID(), next.checksum, next.name);
          applied.push(next.name);
        }
        const broken = db.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0) throw new Error(`leaves ${broken.length} broken foreign keys`);
        db.exec("COMMIT");
      } catch (e) {
        db.exec("ROLLBACK");
        throw new Error(`migration ${next.name} failed: ${(e as Error).message}`);
      } finally {
        db.pragma("foreign_keys = ON");
      }
    }
    return { applied, provider: "sqlite" };
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string): Promise<MigrationResult> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PG_MIGRATION_LOCK]);
    await client.query(MIGRATIONS_TABLE.postgres);
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied: string[] = [];
    for (const m of pendingFrom("postgres", new Set(rows.map((r) => r.migration_name)))) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
        applied.push(m.name);
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
      }
    }
    return { applied, provider: "postgres" };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PG_MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}
