import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { emitLocal, PG_CHANNEL } from "@/lib/bus";
import { env, isPostgres } from "@/lib/env";
import type { PrismaClient } from "./generated/sqlite/client";
import { migrate, sqliteFile } from "./migrate";

/**
 * The only door to the database. Every domain operation runs as a unit of work:
 *
 *   write(u => …)   one transaction; `u.notify(topic)` wakes waiters once it has committed
 *   read(u => …)    a read
 *
 * where `u.db` is the Prisma client and `u.sql` runs hand-written SQL (hot paths only: Prisma costs
 * ~250–500 µs a query here against ~20 µs for a prepared better-sqlite3 statement).
 *
 * SQLite: Prisma's better-sqlite3 adapter has ONE connection, and an interactive transaction holds it
 * across awaits, so a query from another request would run inside that transaction and vanish with its
 * rollback (docs/development.md). We rule that out: every unit of work of this process waits its turn in one
 * queue on that connection, and each write unit is its own SAVEPOINT, rolled back alone when it fails.
 * Group commit: the first write unit opens a transaction (`BEGIN IMMEDIATE`, which also makes a second
 * process, such as the CLI, wait on busy_timeout instead of failing with SQLITE_BUSY); the units that
 * reach the queue during the same turn of the event loop join it, and one COMMIT at the end of the turn
 * makes them all durable (a COMMIT costs several times a unit's own statements, BENCHMARKS.md). No unit's
 * result, read or write, is released before the transaction it ran in has committed; if SQLite abandons
 * that transaction, every unit in it fails instead.
 * Consequence: code inside a unit must not start Prisma's own transactions (`$transaction`, nested
 * writes); SQLite refuses them loudly ("cannot start a transaction within a transaction").
 * PostgreSQL: each write unit is its own interactive transaction on the pool; notifications are
 * `pg_notify` inside it, so they fire on commit and reach every instance.
 *
 * The clients are never exported: nothing outside this module can bypass the lock.
 */
export type Db = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Hand-written SQL with `?` placeholders, valid on both providers (quote identifiers: "Message"). */
export type Sql = {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  run(sql: string, ...params: unknown[]): Promise<number>;
  postgres: boolean;
};

export type Unit = { db: Db; sql: Sql; notify(topic: string): void };
export type ReadUnit = Omit<Unit, "notify">;

type State = {
  client: PrismaClient;
  sqlite?: SqliteQueue;
};

/** SQLite only: the adapter's own connection (shared with Prisma), its SQL runner, the queue's tail. */
type SqliteQueue = {
  raw: BetterSqlite3.Database;
  sql: Sql;
  tx: TxStatements;
  tail: Promise<unknown>;
  /** The open group-commit transaction, if any. */
  batch?: Batch;
};

/** One SQLite transaction shared by the units of one event-loop turn. */
type Batch = {
  /** Settles when the transaction has committed (or failed: then every unit in it fails). */
  committed: Promise<void>;
  settle(error?: Error): void;
  /** Topics the batch's units notified; published once the batch has committed. */
  topics: Set<string>;
};

/**
 * The door, shared through `globalThis`: `npm start` loads lib/ twice (Next's bundle, and server/main.ts's
 * /mcp fast path through tsx), and both must use one connection and one queue. The door carries its own
 * functions, so whichever copy opened it serves both.
 */
type Door = {
  write<T>(fn: (u: Unit) => Promise<T>): Promise<T>;
  read<T>(fn: (u: ReadUnit) => Promise<T>): Promise<T>;
  disconnect(): Promise<void>;
};

const g = globalThis as unknown as { __switchboardDoor?: Promise<Door> };

async function open(): Promise<State> {
  const url = env().DATABASE_URL;
  await migrate(url);
  if (isPostgres(url)) {
    const [{ PrismaClient: PgClient }, { PrismaPg }] = await Promise.all([
      import("./generated/postgres/client"),
      import("@prisma/adapter-pg"),
    ]);
    const client = new PgClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) });
    return { client: client as unknown as PrismaClient };
  }
  const [{ PrismaClient: SqliteClient }, { PrismaBetterSqlite3 }] = await Promise.all([
    import("./generated/sqlite/client"),
    import("@prisma/adapter-better-sqlite3"),
  ]);
  const file = sqliteFile(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const factory = new PrismaBetterSqlite3({ url: `file:${file}` });
  // Keep a handle on the adapter's connection so hand-written SQL runs on the same one.
  let raw: BetterSqlite3.Database | undefined;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    raw = (adapter as unknown as { client: BetterSqlite3.Database }).client;
    raw.pragma("journal_mode = WAL");
    raw.pragma("synchronous = NORMAL");
    raw.pragma("foreign_keys = ON");
    raw.pragma("busy_timeout = 5000");
    return adapter;
  };
  const client = new SqliteClient({ adapter: factory });
  await client.$connect();
  if (!raw) throw new Error("sqlite adapter did not expose its connection");
  const sqlite = { raw, sql: sqliteSql(raw), tx: txStatements(raw), tail: Promise.resolve() };
  return { client, sqlite };
}

function door(): Promise<Door> {
  g.__switchboardDoor ??= open().then(
    (s) => ({
      write: (fn) => writeUnit(s, fn),
      read: (fn) => readUnit(s, fn),
      disconnect: async () => {
        const q = s.sqlite;
        if (q) await serialized(q, async () => q.batch && endBatch(q, q.batch));
        await s.client.$disconnect();
      },
    }),
    (e) => {
      g.__switchboardDoor = undefined;
      throw e;
    },
  );
  return g.__switchboardDoor;
}

type TxStatements = Record<
  "begin" | "commit" | "rollback" | "savepoint" | "release" | "rollbackTo",
  () => void
>;

function txStatements(raw: BetterSqlite3.Database): TxStatements {
  const st = (sql: string) => {
    const p = raw.prepare(sql);
    return () => void p.run();
  };
  return {
    begin: st("BEGIN IMMEDIATE"),
    commit: st("COMMIT"),
    rollback: st("ROLLBACK"),
    savepoint: st("SAVEPOINT unit"),
    release: st("RELEASE unit"),
    rollbackTo: st("ROLLBACK TO unit"),
  };
}

/** Run `fn` after every earlier SQLite unit of work of this process has finished. */
function serialized<T>(q: SqliteQueue, fn: () => Promise<T>): Promise<T> {
  const result = q.tail.then(fn, fn);
  q.tail = result.catch(() => undefined);
  return result;
}

function sqliteParam(p: unknown): unknown {
  if (p instanceof Date) return p.toISOString().replace("Z", "+00:00"); // Prisma's own format
  if (typeof p === "boolean") return p ? 1 : 0;
  return p;
}

function sqliteSql(raw: BetterSqlite3.Database): Sql {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = raw.prepare(sql);
      if (s.reader) s.safeIntegers(false);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    postgres: false,
    all: async <T>(sql: string, ...params: unknown[]) => stmt(sql).all(...params.map(sqliteParam)) as T[],
    get: async <T>(sql: string, ...params: unknown[]) =>
      stmt(sql).get(...params.map(sqliteParam)) as T | undefined,
    run: async (sql: string, ...params: unknown[]) => stmt(sql).run(...params.map(sqliteParam)).changes,
  };
}

function postgresSql(db: Db): Sql {
  const numbered = (sql: string) => {
    let i = 0;
    return sql.replace(/\?/g, () => `$${++i}`);
  };
  return {
    postgres: true,
    all: async <T>(sql: string, ...params: unknown[]) =>
      (await db.$queryRawUnsafe(numbered(sql), ...params)) as T[],
    get: async <T>(sql: string, ...params: unknown[]) =>
      ((await db.$queryRawUnsafe(numbered(sql), ...params)) as T[])[0],
    run: async (sql: string, ...params: unknown[]) => db.$executeRawUnsafe(numbered(sql), ...params),
  };
}

export async function write<T>(fn: (u: Unit) => Promise<T>): Promise<T> {
  return (await door()).write(fn);
}

export async function read<T>(fn: (u: ReadUnit) => Promise<T>): Promise<T> {
  return (await door()).read(fn);
}

async function writeUnit<T>(s: State, fn: (u: Unit) => Promise<T>): Promise<T> {
  const topics = new Set<string>();
  const notify = (t: string) => void topics.add(t);
  const q = s.sqlite;
  if (!q) {
    return s.client.$transaction(
      async (db) => {
        const result = await fn({ db, sql: postgresSql(db), notify });
        for (const topic of topics) await db.$executeRaw`SELECT pg_notify(${PG_CHANNEL}, ${topic})`;
        return result;
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  }
  const { result, batch } = await serialized(q, async () => {
    const batch = joinBatch(q);
    q.tx.savepoint();
    try {
      const result = await fn({ db: s.client, sql: q.sql, notify });
      q.tx.release();
      for (const topic of topics) batch.topics.add(topic);
      return { result, batch };
    } catch (e) {
      if (q.raw.inTransaction) {
        q.tx.rollbackTo();
        q.tx.release();
      } else {
        // SQLite abandoned the whole transaction (an I/O error, a full disk): its other units fail too.
        endBatch(q, batch, new Error("SQLite abandoned the transaction", { cause: e }));
      }
      throw e;
    }
  });
  await batch.committed;
  return result;
}

async function readUnit<T>(s: State, fn: (u: ReadUnit) => Promise<T>): Promise<T> {
  const q = s.sqlite;
  if (!q) return fn({ db: s.client, sql: postgresSql(s.client) });
  const { result, batch } = await serialized(q, async () => ({
    result: await fn({ db: s.client, sql: q.sql }),
    batch: q.batch,
  }));
  // Inside an open transaction the read may have seen its earlier units' writes: release it with them.
  if (batch) await batch.committed;
  return result;
}

/** The open transaction, or a new one whose COMMIT is queued once this turn of the event loop is over. */
function joinBatch(q: SqliteQueue): Batch {
  if (q.batch) return q.batch;
  q.tx.begin();
  let settle!: Batch["settle"];
  const committed = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  committed.catch(() => undefined); // each unit awaits it; this only keeps an unawaited failure quiet
  const batch: Batch = { committed, settle, topics: new Set() };
  q.batch = batch;
  setImmediate(() => void serialized(q, async () => endBatch(q, batch)));
  return batch;
}

/** Commit `batch` (or, given an error, give it up), then release its units and publish their topics. */
function endBatch(q: SqliteQueue, batch: Batch, error?: Error) {
  if (q.batch !== batch) return; // already ended
  q.batch = undefined;
  if (error === undefined) {
    try {
      q.tx.commit();
    } catch (e) {
      error = e instanceof Error ? e : new Error(String(e));
    }
  }
  if (error !== undefined) {
    if (q.raw.inTransaction) q.tx.rollback();
    return batch.settle(error);
  }
  batch.settle();
  for (const topic of batch.topics) emitLocal(topic);
}

/** Run `fn` again (up to `attempts` times in all) when it fails on a unique constraint (Prisma P2002). */
export async function retryOnUniqueViolation<T>(fn: () => Promise<T>, attempts = 20): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts || (e as { code?: string }).code !== "P2002") throw e;
    }
  }
}

/** Close the connection (CLI and tests). */
export async function disconnect(): Promise<void> {
  const pending = g.__switchboardDoor;
  g.__switchboardDoor = undefined;
  if (pending) await (await pending).disconnect();
}
