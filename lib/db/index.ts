import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
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
 * queue, and write units run inside `BEGIN IMMEDIATE … COMMIT` on that connection, each in its own
 * savepoint, several consecutive ones sharing a commit (see `drain`). IMMEDIATE also makes a second
 * process, such as the CLI, wait on busy_timeout instead of failing with SQLITE_BUSY.
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

/** A unit of work waiting in this process's SQLite queue. */
type Job = {
  write: boolean;
  run(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
};

type State = {
  client: PrismaClient;
  /** SQLite only: the adapter's own connection (shared with Prisma), its SQL runner, the unit queue. */
  sqlite?: { raw: BetterSqlite3.Database; sql: Sql; tx: TxStatements; queue: Job[]; draining: boolean };
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
  const sqlite = { raw, sql: sqliteSql(raw), tx: txStatements(raw), queue: [], draining: false };
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

type TxStatements = Record<"begin" | "commit" | "rollback" | "savepoint" | "release" | "undo", () => void>;

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
    undo: st("ROLLBACK TO unit"),
  };
}

/** At most this many write units share one commit, and a batch stops taking new units after this long. */
const BATCH_UNITS = 32;
const BATCH_MS = 5;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function attempt(fn: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

function settle(job: Job, o: Outcome) {
  if (o.ok) job.resolve(o.value);
  else job.reject(o.error);
}

/**
 * Run the queued SQLite units one at a time, in order. Consecutive write units are group-committed: one
 * `BEGIN IMMEDIATE … COMMIT` around several units, each inside its own savepoint, so a failing unit rolls
 * back only its own writes. No unit is answered before the commit that makes it durable; if that commit
 * fails, every unit of the batch fails with it (none was acknowledged).
 */
async function drain(q: NonNullable<State["sqlite"]>): Promise<void> {
  q.draining = true;
  try {
    for (let job = q.queue.shift(); job; job = q.queue.shift()) {
      if (!job.write) {
        settle(job, await attempt(job.run));
        continue;
      }
      try {
        q.tx.begin();
      } catch (error) {
        job.reject(error);
        continue;
      }
      const batch: [Job, Outcome][] = [];
      const started = performance.now();
      for (let next: Job | undefined = job; next; ) {
        q.tx.savepoint();
        const o = await attempt(next.run);
        if (!q.raw.inTransaction) {
          // SQLite gave up the whole transaction (e.g. I/O error): the batch so far is gone, say so.
          for (const b of batch)
            if (b[1].ok) b[1] = { ok: false, error: o.ok ? new Error("transaction lost") : o.error };
          batch.push([next, o.ok ? { ok: false, error: new Error("transaction lost") } : o]);
          break;
        }
        if (!o.ok) q.tx.undo();
        q.tx.release();
        batch.push([next, o]);
        const more =
          batch.length < BATCH_UNITS && performance.now() - started < BATCH_MS && q.queue[0]?.write;
        next = more ? q.queue.shift() : undefined;
      }
      if (q.raw.inTransaction) {
        try {
          q.tx.commit();
        } catch (error) {
          if (q.raw.inTransaction) q.tx.rollback();
          for (const b of batch) if (b[1].ok) b[1] = { ok: false, error };
        }
      }
      for (const [j, o] of batch) settle(j, o);
    }
  } finally {
    q.draining = false;
  }
}

/** Queue a unit of work behind every earlier one of this process (SQLite). */
function enqueue<T>(q: NonNullable<State["sqlite"]>, write: boolean, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    q.queue.push({ write, run, resolve: resolve as (v: unknown) => void, reject });
    if (!q.draining) void drain(q);
  });
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
  const result = await enqueue(q, true, () => fn({ db: s.client, sql: q.sql, notify }));
  for (const topic of topics) emitLocal(topic);
  return result;
}

async function readUnit<T>(s: State, fn: (u: ReadUnit) => Promise<T>): Promise<T> {
  const q = s.sqlite;
  if (!q) return fn({ db: s.client, sql: postgresSql(s.client) });
  return enqueue(q, false, () => fn({ db: s.client, sql: q.sql }));
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
