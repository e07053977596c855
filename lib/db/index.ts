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
 * rollback (ENVIRONMENT.md). We design that out: every unit of work of this process waits its turn in one
 * queue, and a write unit wraps itself in `BEGIN IMMEDIATE … COMMIT` on that connection (IMMEDIATE also
 * makes a second process, such as the CLI, wait on busy_timeout instead of failing with SQLITE_BUSY).
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
  /** SQLite only: the adapter's own connection (shared with Prisma), its SQL runner, the queue's tail. */
  sqlite?: { raw: BetterSqlite3.Database; sql: Sql; tx: TxStatements; tail: Promise<unknown> };
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
      disconnect: () => s.client.$disconnect(),
    }),
    (e) => {
      g.__switchboardDoor = undefined;
      throw e;
    },
  );
  return g.__switchboardDoor;
}

type TxStatements = Record<"begin" | "commit" | "rollback", () => void>;

function txStatements(raw: BetterSqlite3.Database): TxStatements {
  const st = (sql: string) => {
    const p = raw.prepare(sql);
    return () => void p.run();
  };
  return { begin: st("BEGIN IMMEDIATE"), commit: st("COMMIT"), rollback: st("ROLLBACK") };
}

/**
 * Run `fn` after every earlier SQLite unit of work of this process has finished. (Group commit was
 * measured and dropped: units on the hot paths never wait on I/O, so the queue never holds two.)
 */
function serialized<T>(q: NonNullable<State["sqlite"]>, fn: () => Promise<T>): Promise<T> {
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
  const result = await serialized(q, async () => {
    q.tx.begin();
    try {
      const r = await fn({ db: s.client, sql: q.sql, notify });
      q.tx.commit();
      return r;
    } catch (e) {
      if (q.raw.inTransaction) q.tx.rollback();
      throw e;
    }
  });
  for (const topic of topics) emitLocal(topic);
  return result;
}

async function readUnit<T>(s: State, fn: (u: ReadUnit) => Promise<T>): Promise<T> {
  const q = s.sqlite;
  if (!q) return fn({ db: s.client, sql: postgresSql(s.client) });
  return serialized(q, () => fn({ db: s.client, sql: q.sql }));
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
