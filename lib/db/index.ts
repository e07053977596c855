import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { emitLocal } from "@/lib/bus";
import { env, isPostgres } from "@/lib/env";
import { logger } from "@/lib/log";
import type { Prisma, PrismaClient } from "./generated/sqlite/client";
import { migrate, sqliteFile } from "./migrate";

/**
 * The only door to the database. Every domain operation runs as a unit of work:
 *
 *   write(u => …)   one transaction; `u.notify(topic)` wakes waiters and `u.afterCommit(fn)` runs a side
 *                   effect (a file) once it has committed
 *   read(u => …)    a read
 *
 * where `u.db` is the Prisma client (typed without what the SQLite path cannot do: see `Db`) and `u.sql`
 * runs hand-written SQL. docs/database.md is the guide: units, group commit, afterCommit, the Db type,
 * when to write SQL, row types, the two providers.
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
 * that transaction, every unit in it fails instead, and none of their after-commit effects runs.
 * A unit that holds the queue longer than SWITCHBOARD_SLOW_UNIT_MS is logged with its name.
 * PostgreSQL (lib/db/postgres.ts): each write unit is its own BEGIN … COMMIT on a connection of a `pg`
 * pool, `u.sql` runs on that connection directly (pipelined), Prisma joins the transaction when the unit
 * uses `u.db`; its topics are published after COMMIT (this process at once, the other instances by one
 * coalesced NOTIFY).
 *
 * The clients are never exported: nothing outside this module can bypass the lock.
 */
export type Db = {
  [K in Exclude<keyof PrismaClient, Forbidden>]: K extends `$${string}`
    ? PrismaClient[K]
    : Model<PrismaClient[K]>;
};
type Forbidden = "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends";

/*
 * What Prisma can only do in a transaction of its own, which SQLite refuses inside a unit ("cannot start a
 * transaction within a transaction"; a second such call in the process then hangs the adapter, and with
 * it the queue): `upsert` (unless Prisma finds a native form: do not rely on it), nested writes (a
 * relation field in `data`, `connect` included), and a write that returns relations (`include`, or a
 * relation or `_count` in `select`). Each model delegate below drops `upsert` and types its write methods
 * so that these forms do not compile. Reads (`findMany({ include })`, …) are unaffected. docs/database.md.
 */
type Model<D> = Omit<D, "upsert" | WriteOp> & {
  [F in WriteOp & keyof D]: <A extends Prisma.Args<D, F> & Flat<D, F>>(
    args: Prisma.Exact<A, Prisma.Args<D, F> & Flat<D, F>>,
  ) => Prisma.PrismaPromise<Prisma.Result<D, A, F>>;
};
type DataOp =
  | "create"
  | "createMany"
  | "createManyAndReturn"
  | "update"
  | "updateMany"
  | "updateManyAndReturn";
type RowOp = "create" | "createManyAndReturn" | "update" | "updateManyAndReturn" | "delete";
type WriteOp = DataOp | RowOp;
/** The model's relation fields (`payload.objects` of the delegate's type map). */
type Relations<D> = D extends { [K: symbol]: { types: { payload: { objects: infer O } } } } ? keyof O : never;
type None<K extends PropertyKey> = { [P in K]?: never };
type Flat<D, F> = (F extends DataOp
  ? { data?: None<Relations<D>> | readonly None<Relations<D>>[] }
  : unknown) &
  (F extends RowOp ? { include?: never; select?: None<Relations<D> | "_count"> | null } : unknown);

/** Hand-written SQL with `?` placeholders, valid on both providers (quote identifiers: "Message"). */
export type Sql = {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  run(sql: string, ...params: unknown[]): Promise<number>;
  postgres: boolean;
};

/** A write unit. Call its methods on the unit (`u.notify(…)`), not detached. */
export type Unit = {
  db: Db;
  sql: Sql;
  /** Wake the waiters of `topic` once this unit has committed. */
  notify(topic: string): void;
  /**
   * Run `effect` once this unit's transaction has committed (SQLite: the group commit's COMMIT), before
   * `write()` resolves; never when the unit or its transaction failed. For effects outside the database
   * (files). An effect that throws is logged: the unit has committed and still succeeds.
   */
  afterCommit(effect: () => unknown): void;
  /**
   * Run `sql` as the unit's last statement, right before its COMMIT (PostgreSQL: sent with the COMMIT, in
   * one round trip). For a statement that takes a hot row lock (the event log's per-goal sequence): the lock
   * is then held while the server commits, not while this process gets round to sending the COMMIT. Its
   * failure fails the unit. Nothing in the unit sees its effect; SQLite runs it at the end of the unit.
   */
  atCommit(sql: string, ...params: unknown[]): void;
  /**
   * Run `sql` as the unit's last statement and commit the unit with it; resolves with its rows once the
   * unit has committed. PostgreSQL: the statement, the `atCommit` statements and the COMMIT leave in one
   * socket write, with the BEGIN when the unit sent nothing before (a whole unit in one round trip); no
   * statement may follow. If the statement (or an `atCommit` one, or the COMMIT) fails, the unit rolls back
   * and this rejects. Because the COMMIT is sent before the unit sees the rows, **the statement must write
   * only when the unit succeeds** (its checks in its own `WHERE`s) and the unit may throw after it only when
   * it wrote nothing (a refusal the rows explain: committing nothing is rolling back). SQLite: `u.sql.all`,
   * the unit commits with its group as always. docs/database.md, "PostgreSQL".
   */
  commitWith<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
};
export type ReadUnit = Pick<Unit, "db" | "sql">;

type State = {
  client: PrismaClient;
  /** The same client, as units see it. */
  db: Db;
  sqlite?: SqliteQueue;
  pg?: PgState;
  /** SWITCHBOARD_SLOW_UNIT_MS. */
  slowMs: number;
};

/** A write unit's own state: created once per unit, its methods on the prototype. */
class WriteUnit implements Unit {
  topics: Set<string> | undefined = undefined;
  effects: (() => unknown)[] | undefined = undefined;
  constructor(
    readonly db: Db,
    readonly sql: Sql,
  ) {}
  notify(topic: string): void {
    this.topics ??= new Set();
    this.topics.add(topic);
  }
  afterCommit(effect: () => unknown): void {
    this.effects ??= [];
    this.effects.push(effect);
  }
  last: [string, unknown[]][] | undefined = undefined;
  atCommit(sql: string, ...params: unknown[]): void {
    this.last ??= [];
    this.last.push([sql, params]);
  }
  commitWith<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return this.sql.all<T>(sql, ...params);
  }
}

/**
 * Name the units that `fn` starts (a tool, a route, a job) for the slow-unit log, without touching their
 * `write()`/`read()` calls; `write(fn, name)` names one unit explicitly.
 *
 * A unit takes the label current when `write()`/`read()` is called. The label is set for the synchronous
 * run of `fn`, which covers the units a handler starts before its first `await` (most tools' main unit);
 * where AsyncLocalStorage is cheap (Node >= 24, which carries it on the async context frame) it also
 * follows `fn` across awaits. On Node 20 an AsyncLocalStorage turns on a promise hook for the whole
 * process, which cost ~10 % of the CPU of an /mcp call (measured in-process): a unit started after an
 * await is then logged as `unnamed` unless it passes a name.
 */
export function withUnitName<A extends unknown[], R>(name: string, fn: (...args: A) => R, ...args: A): R {
  const outer = currentName;
  currentName = name;
  try {
    return trackedNames ? trackedNames.run(name, fn, ...args) : fn(...args);
  } finally {
    currentName = outer;
  }
}

let currentName: string | undefined;
const trackedNames =
  Number(process.versions.node.split(".")[0]) >= 24 ? new AsyncLocalStorage<string>() : undefined;

/** The name of a unit being started now. */
const unitName = (name: string | undefined) => name ?? currentName ?? trackedNames?.getStore();

const g = globalThis as unknown as { __switchboardDoor?: Promise<Door> };

/** PostgreSQL only (lib/db/postgres.ts): the pool, `u.sql` of reads, wake-ups after commit. */
type PgState = {
  pool: import("pg").Pool;
  adoptions: import("./postgres").Adoptions;
  /** `u.sql` of read units: each statement on a free connection of the pool. */
  sql: Sql;
  publisher: import("./postgres").Publisher;
  unitSql: typeof import("./postgres").pgSql;
  lazyDb: typeof import("./postgres").lazyDb;
  corker: typeof import("./postgres").corker;
  traffic: typeof import("./postgres").traffic;
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
  traffic?: { statements: number; writes: number; notifies: number };
  write<T>(fn: (u: Unit) => Promise<T>, name?: string): Promise<T>;
  read<T>(fn: (u: ReadUnit) => Promise<T>, name?: string): Promise<T>;
  disconnect(): Promise<void>;
};

async function open(): Promise<State> {
  const url = env().DATABASE_URL;
  const slowMs = env().SWITCHBOARD_SLOW_UNIT_MS;
  await migrate(url);
  if (isPostgres(url)) {
    const [{ PrismaClient: PgClient }, { PrismaPg }, postgres] = await Promise.all([
      import("./generated/postgres/client"),
      import("@prisma/adapter-pg"),
      import("./postgres"),
    ]);
    const pool = postgres.createPool(url, env().SWITCHBOARD_PG_POOL);
    if (env().SWITCHBOARD_PG_TRAFFIC_LOG_S > 0) postgres.logTraffic(env().SWITCHBOARD_PG_TRAFFIC_LOG_S);
    const factory = new PrismaPg(pool);
    const adoptions = new postgres.Adoptions();
    adoptions.install(factory);
    const client = new PgClient({ adapter: factory });
    const db = client as unknown as Db;
    const pgState: PgState = {
      pool,
      adoptions,
      sql: postgres.pgSql(pool),
      publisher: new postgres.Publisher(pool),
      unitSql: postgres.pgSql,
      lazyDb: postgres.lazyDb,
      corker: postgres.corker,
      traffic: postgres.traffic,
    };
    return { client: client as unknown as PrismaClient, db, pg: pgState, slowMs };
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
    // FULL: an acknowledged write survives a power loss (each group commit fsyncs the WAL; NORMAL could
    // lose the last ones). Measured trade-off in BENCHMARKS.md ("SQLite synchronous"); NORMAL by choice.
    raw.pragma(`synchronous = ${env().SWITCHBOARD_SQLITE_SYNCHRONOUS}`);
    raw.pragma("foreign_keys = ON");
    raw.pragma("busy_timeout = 5000");
    return adapter;
  };
  const client = new SqliteClient({ adapter: factory });
  await client.$connect();
  if (!raw) throw new Error("sqlite adapter did not expose its connection");
  const sqlite = { raw, sql: sqliteSql(raw), tx: txStatements(raw), tail: Promise.resolve() };
  return { client, db: client as unknown as Db, sqlite, slowMs };
}

function door(): Promise<Door> {
  g.__switchboardDoor ??= open().then(
    (s) => ({
      traffic: s.pg?.traffic,
      write: (fn, name) => writeUnit(s, fn, name),
      read: (fn, name) => readUnit(s, fn, name),
      disconnect: async () => {
        const q = s.sqlite;
        if (q) await serialized(q, async () => q.batch && endBatch(q, q.batch));
        await s.pg?.publisher.drain();
        await s.client.$disconnect();
        await s.pg?.pool.end();
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

/** Run `fn` as one write unit; `name` labels it in the slow-unit log (default: the surface's label). */
export async function write<T>(fn: (u: Unit) => Promise<T>, name?: string): Promise<T> {
  const label = unitName(name); // before the first await: the caller's label
  return (await door()).write(fn, label);
}

/** Run `fn` as one read unit; `name` as for `write`. */
export async function read<T>(fn: (u: ReadUnit) => Promise<T>, name?: string): Promise<T> {
  const label = unitName(name);
  return (await door()).read(fn, label);
}

async function writeUnit<T>(s: State, fn: (u: Unit) => Promise<T>, name: string | undefined): Promise<T> {
  const q = s.sqlite;
  let unit: WriteUnit | undefined;
  let result: T;
  if (s.pg) {
    const done = await pgWriteUnit(s, s.pg, fn, name);
    unit = done;
    result = done.result as T;
  } else if (q) {
    const u = new WriteUnit(s.db, q.sql);
    unit = u;
    let batch: Batch;
    [result, batch] = await serialized(q, async () => {
      const start = performance.now();
      const batch = joinBatch(q);
      q.tx.savepoint();
      try {
        const result = await fn(u);
        if (u.last) for (const [sql, params] of u.last) await q.sql.run(sql, ...params);
        q.tx.release();
        if (u.topics) for (const topic of u.topics) batch.topics.add(topic);
        return [result, batch] as const;
      } catch (e) {
        if (q.raw.inTransaction) {
          try {
            q.tx.rollbackTo();
            q.tx.release();
          } catch (undo) {
            // The failed unit's writes could not be undone alone: nothing of this transaction may commit.
            endBatch(q, batch, new Error("SQLite could not roll back a failed unit", { cause: undo }));
          }
        } else {
          // SQLite abandoned the whole transaction (an I/O error, a full disk): its other units fail too.
          endBatch(q, batch, new Error("SQLite abandoned the transaction", { cause: e }));
        }
        throw e;
      } finally {
        held(s, start, "write", name);
      }
    });
    await batch.committed;
  } else throw new Error("no database");
  if (unit?.effects) await runEffects(unit.effects, name);
  return result;
}

/** A write unit that ran on PostgreSQL: its result, topics and effects. */
class PgUnit extends WriteUnit {
  result: unknown;
  /** Ends the unit's Prisma transaction, if it started one (`error`: the unit failed). */
  endPrisma?: (error?: unknown) => Promise<void>;
  /** Sends the unit's last statements and its COMMIT (set by `pgWriteUnit`). */
  finish!: (first?: [string, unknown[]]) => Promise<unknown[]>;
  /** The COMMIT was sent (`commitWith`); `committed`: and it succeeded. */
  ending?: Promise<unknown[]>;
  committed = false;
  override commitWith<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    if (this.ending) throw new Error("commitWith: the unit has already committed");
    this.ending = this.finish([sql, params]);
    return this.ending as Promise<T[]>;
  }
}

/**
 * PostgreSQL write unit: BEGIN … COMMIT on one pool connection, `u.sql` straight on it, Prisma joining it
 * on first use of `u.db` (lib/db/postgres.ts). Its topics are published after COMMIT; a unit still running
 * after 30 s (Prisma's former transaction timeout) fails at its next statement and rolls back.
 */
async function pgWriteUnit<T>(
  s: State,
  p: PgState,
  fn: (u: Unit) => Promise<T>,
  name: string | undefined,
): Promise<PgUnit> {
  const conn = await p.pool.connect();
  const start = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
  }, 30_000);
  const guard = () => {
    if (timedOut) throw new Error("unit of work timed out after 30 s; its transaction is rolled back");
  };
  const cork = p.corker(conn);
  let tx: Promise<Db> | undefined;
  let closed = false;
  // BEGIN is sent with the unit's first statement (not awaited: the pipeline sends the statement right
  // behind it, in the same corked write; a BEGIN fails only with its connection, and then so does every
  // statement after it). A unit whose only statement is its `commitWith` needs none: see `finish`.
  let begin: Promise<unknown> | undefined;
  const begun = () => {
    if (begin) return;
    cork();
    begin = conn.query("BEGIN");
    begin.catch(() => undefined);
  };
  let bare = false;
  const unit: PgUnit = new PgUnit(
    p.lazyDb(() => {
      begun();
      tx ??= startPrisma(s, p, conn, unit);
      return tx;
    }),
    p.unitSql(conn, () => {
      if (closed) throw new Error("a statement after the unit's COMMIT (commitWith)");
      guard();
      if (!bare) begun();
      cork();
    }),
  );
  // The unit's last statements travel with the COMMIT (`first`: the statement of `commitWith`, whose rows
  // are returned). A COMMIT after a failed statement rolls back (and answers without an error), so each
  // of them is checked: one failure fails the unit.
  unit.finish = async (first) => {
    if (unit.endPrisma) await unit.endPrisma();
    guard();
    cork();
    const stmts = [...(first ? [first] : []), ...(unit.last ?? [])];
    // Nothing sent before, one statement: it is a transaction of its own (PostgreSQL commits it at its
    // Sync, before the ReadyForQuery on which `pg` resolves it), so neither BEGIN nor COMMIT is needed.
    bare = !begin && stmts.length <= 1;
    const sent = stmts.map(([sql, params]) => unit.sql.all(sql, ...params));
    closed = true;
    if (bare) {
      const [rows] = await Promise.all(sent);
      unit.committed = true;
      return first ? (rows ?? []) : [];
    }
    const settled = await Promise.allSettled([...sent, conn.query("COMMIT")]);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    unit.committed = true;
    return first ? (settled[0] as PromiseFulfilledResult<unknown[]>).value : [];
  };
  let broken: Error | undefined;
  try {
    unit.result = await fn(unit);
    await begin;
    await (unit.ending ?? unit.finish());
  } catch (e) {
    if (unit.ending) await unit.ending.catch(() => undefined);
    // After a successful `commitWith` the unit wrote nothing it must undo (its contract): the refusal
    // stands, the transaction is over. Nothing sent: nothing to roll back.
    if (!unit.committed && (begin || bare)) {
      await unit.endPrisma?.(e);
      await conn.query("ROLLBACK").catch((err: Error) => {
        broken = err; // the connection is unusable: the pool drops it
      });
    }
    throw e;
  } finally {
    clearTimeout(timer);
    conn.release(broken);
    held(s, start, "write", name);
  }
  if (unit.topics) p.publisher.publish(unit.topics);
  return unit;
}

/** Start the unit's Prisma transaction on its connection (lib/db/postgres.ts, `Adoptions`). */
function startPrisma(s: State, p: PgState, conn: import("pg").PoolClient, unit: PgUnit): Promise<Db> {
  const id = p.adoptions.register(conn);
  let finish!: (error?: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => (error === undefined ? resolve() : reject(error));
  });
  return new Promise<Db>((resolve, reject) => {
    const done = s.client
      .$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(p.adoptions.marker(id));
          resolve(tx as unknown as Db);
          await finished;
        },
        { maxWait: 10_000, timeout: 30_000 },
      )
      .catch(reject)
      .finally(() => p.adoptions.release(id));
    unit.endPrisma = async (error) => {
      finish(error);
      await done.catch(() => undefined);
    };
  });
}

/** The after-commit effects of a committed unit, in order. A failure is logged, never thrown. */
async function runEffects(effects: (() => unknown)[], name: string | undefined) {
  for (const effect of effects) {
    try {
      await effect();
    } catch (e) {
      logger.error({ err: e, unit: name ?? "unnamed" }, "after-commit effect failed");
    }
  }
}

async function readUnit<T>(s: State, fn: (u: ReadUnit) => Promise<T>, name: string | undefined): Promise<T> {
  const q = s.sqlite;
  if (!q) {
    const start = performance.now();
    const result = await fn({ db: s.db, sql: (s.pg as PgState).sql });
    held(s, start, "read", name);
    return result;
  }
  const [result, batch] = await serialized(q, async () => {
    const start = performance.now();
    try {
      return [await fn({ db: s.db, sql: q.sql }), q.batch] as const;
    } finally {
      held(s, start, "read", name);
    }
  });
  // Inside an open transaction the read may have seen its earlier units' writes: release it with them.
  if (batch) await batch.committed;
  return result;
}

/**
 * Log a unit that held the SQLite queue (PostgreSQL: its transaction, or the read) longer than the
 * threshold. Two `performance.now()` calls per unit; the name is looked up only for a slow one.
 */
function held(s: State, start: number, kind: "write" | "read", name: string | undefined) {
  const ms = performance.now() - start;
  if (ms <= s.slowMs) return;
  logger.warn(
    { unit: name ?? "unnamed", kind, ms: Math.round(ms) },
    `slow ${kind} unit held the database for ${Math.round(ms)} ms`,
  );
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
      // P2002: Prisma's; 23505: PostgreSQL's own, from `u.sql` (lib/db/postgres.ts).
      const code = (e as { code?: string }).code;
      if (i >= attempts || (code !== "P2002" && code !== "23505")) throw e;
    }
  }
}

/**
 * PostgreSQL only: statements and socket writes (round trips) this process has sent so far
 * (lib/db/postgres.ts, `traffic`); undefined on SQLite. For tests and benchmarks: take the difference.
 */
export async function dbTraffic(): Promise<
  { statements: number; writes: number; notifies: number } | undefined
> {
  const t = (await door()).traffic;
  return t && { ...t };
}

/** Close the connection (CLI and tests). */
export async function disconnect(): Promise<void> {
  const pending = g.__switchboardDoor;
  g.__switchboardDoor = undefined;
  if (pending) await (await pending).disconnect();
}
