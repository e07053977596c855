import pg from "pg";
import { emitLocal, PG_CHANNEL, publishOrigin } from "@/lib/bus";
import { logger } from "@/lib/log";
import type { Db, Sql } from "./index";

/**
 * PostgreSQL parts of the door (lib/db/index.ts; docs/database.md, "PostgreSQL"): one `pg` pool shared by
 * hand-written SQL and by Prisma's adapter, `u.sql` straight on a pool connection (Prisma's raw-query path
 * cost ~0.3 ms of CPU a statement), write units as our own BEGIN … COMMIT on one connection, Prisma (`u.db`)
 * joining that transaction only when the unit uses it, and wake-ups published after commit.
 */

/** Row parsers shaped like Prisma's raw results: a `timestamp` (no time zone) is UTC, an int8 a bigint. */
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === pg.types.builtins.TIMESTAMP) return (s: string) => new Date(`${s.replace(" ", "T")}Z`);
    if (oid === pg.types.builtins.INT8) return (s: string) => BigInt(s);
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

export function createPool(url: string, max: number): pg.Pool {
  // maxWait of the former Prisma transactions: a unit waits at most 10 s for a connection.
  // Pipeline mode: a statement is sent without waiting for the answer to the one before it. The backend
  // still runs them in order, so a unit's BEGIN travels with its first statement, and statements a unit
  // issues together (`Promise.all`) cost one round trip.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    connectionTimeoutMillis: 10_000,
    pipeline: true,
  });
  pool.on("error", (err) => logger.warn({ err }, "idle PostgreSQL connection failed"));
  pool.on("connect", countTraffic);
  return pool;
}

/**
 * What this process has sent to PostgreSQL on the pool's connections: `statements` (every query: ours,
 * BEGIN/COMMIT, Prisma's, the NOTIFYs) and `writes` (socket writes; each is a round trip the sender then
 * waits on, since statements of one tick leave together: `corker`). Read by `dbTraffic()` (lib/db) in
 * tests and `bench/pg-round-trips.mts`; two increments per statement, always on.
 */
export const traffic = { statements: 0, writes: 0, notifies: 0 };

/** `SWITCHBOARD_PG_TRAFFIC_LOG_S`: log what `traffic` counted in each interval (benchmarks). */
export function logTraffic(everyS: number) {
  let last = { ...traffic };
  setInterval(() => {
    const now = { ...traffic };
    const d = {
      statements: now.statements - last.statements,
      writes: now.writes - last.writes,
      notifies: now.notifies - last.notifies,
    };
    last = now;
    if (d.statements > 0) logger.warn({ ...d, seconds: everyS }, "PostgreSQL traffic");
  }, everyS * 1000).unref();
}

type Counted = {
  query: (...a: unknown[]) => unknown;
  connection?: { stream?: Record<"_write" | "_writev", ((...a: unknown[]) => unknown) | undefined> };
};
function countTraffic(client: pg.PoolClient) {
  const c = client as unknown as Counted;
  const query = c.query;
  c.query = function (this: unknown, ...a: unknown[]) {
    traffic.statements++;
    return query.apply(this, a);
  };
  const stream = c.connection?.stream;
  if (!stream) return;
  for (const k of ["_write", "_writev"] as const) {
    const f = stream[k];
    if (!f) continue;
    stream[k] = function (this: unknown, ...a: unknown[]) {
      traffic.writes++;
      return f.apply(this, a);
    };
  }
}

type Prepared = { text: string; name?: string };
const prepared = new Map<string, Prepared>();
/** Named (server-side prepared) statements per connection stay few: dynamic SQL past this runs unnamed. */
const MAX_NAMED = 500;

/** `?` placeholders numbered for PostgreSQL, and a statement name so each connection parses it once. */
function statement(sql: string): Prepared {
  let p = prepared.get(sql);
  if (!p) {
    let i = 0;
    const text = sql.replace(/\?/g, () => `$${++i}`);
    p = { text, name: prepared.size < MAX_NAMED ? `sb${prepared.size}` : undefined };
    prepared.set(sql, p);
  }
  return p;
}

/** Prisma sends a `timestamp` parameter without a zone, in UTC; an ISO string does the same here. */
const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

/**
 * Hold `conn`'s socket writes until the end of this tick, so that the statements a unit issues together
 * (BEGIN and the first statement; a `Promise.all`) leave in one write. Each write to a loopback socket
 * costs a syscall that also runs the receiving side's network stack: ~35 % of the server's CPU on the
 * messaging benchmark before this (BENCHMARKS.md, "PostgreSQL").
 */
export function corker(conn: pg.PoolClient): () => void {
  const stream = (conn as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } })
    .connection?.stream;
  let corked = false;
  return () => {
    if (corked || !stream?.cork || !stream.uncork) return;
    corked = true;
    stream.cork();
    process.nextTick(() => {
      corked = false;
      stream.uncork?.();
    });
  };
}

/**
 * `u.sql` on a pool (reads: each statement takes a free connection) or on a unit's connection;
 * `before` runs before each statement is sent (the unit's timeout check, `corker`).
 */
export function pgSql(on: Queryable, before?: () => void): Sql {
  const query = async <T>(sql: string, params: unknown[]) => {
    before?.();
    const { text, name } = statement(sql);
    return (on as pg.Pool).query<T & pg.QueryResultRow>({ text, name, values: params.map(param) });
  };
  return {
    postgres: true,
    all: async <T>(sql: string, ...params: unknown[]) => (await query<T>(sql, params)).rows as T[],
    get: async <T>(sql: string, ...params: unknown[]) =>
      (await query<T>(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, ...params: unknown[]) => (await query(sql, params)).rowCount ?? 0,
  };
}

/**
 * Prisma inside our transactions. A unit that touches `u.db` starts a Prisma interactive transaction; the
 * adapter below hands Prisma a transaction object on the unit's own connection instead of a new one: it
 * sends no BEGIN, and its commit and rollback do nothing (`usePhantomQuery`: Prisma sends no COMMIT
 * either), because the door ends the transaction itself. Which connection: the first statement Prisma
 * runs in it is a marker (`/* switchboard:adopt N *\/`, answered without a round trip) naming the unit.
 */
const ADOPT = "/* switchboard:adopt ";
type AdapterQuery = { sql: string; args: unknown[]; argTypes: unknown[] };
type Queryer = {
  queryRaw(q: AdapterQuery): Promise<unknown>;
  executeRaw(q: AdapterQuery): Promise<number>;
};
type Adapter = Queryer & { startTransaction(isolationLevel?: string): Promise<unknown> };

export class Adoptions {
  private next = 0;
  private readonly waiting = new Map<number, pg.PoolClient>();

  /** Wrap the adapter factory's `connect` so that its adapter starts adopted transactions. */
  install(factory: { connect(): Promise<unknown> }) {
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = (await connect()) as Adapter;
      // The adapter's base class runs a statement on a given connection with Prisma's conversions.
      const Base = Object.getPrototypeOf(Object.getPrototypeOf(adapter)).constructor as new (
        client: pg.PoolClient,
      ) => Queryer;
      adapter.startTransaction = async () => this.transaction(Base);
      return adapter;
    };
  }

  /** A number for `conn`, for the marker; `release` forgets it. */
  register(conn: pg.PoolClient): number {
    const id = ++this.next;
    this.waiting.set(id, conn);
    return id;
  }
  release(id: number) {
    this.waiting.delete(id);
  }
  marker(id: number) {
    return `${ADOPT}${id} */`;
  }

  private transaction(Base: new (client: pg.PoolClient) => Queryer) {
    let on: Queryer | undefined;
    const bound = () => {
      if (!on) throw new Error("Prisma transaction used before it was bound to a unit's connection");
      return on;
    };
    const noop = async () => {};
    return {
      provider: "postgres",
      adapterName: "@prisma/adapter-pg",
      options: { usePhantomQuery: true },
      queryRaw: (q: AdapterQuery) => bound().queryRaw(q),
      executeRaw: async (q: AdapterQuery) => {
        if (!q.sql.startsWith(ADOPT)) return bound().executeRaw(q);
        const conn = this.waiting.get(Number(q.sql.slice(ADOPT.length).split(" ")[0]));
        if (!conn) throw new Error("no unit waits for this Prisma transaction");
        on = new Base(conn);
        return 0;
      },
      commit: noop,
      rollback: noop,
      createSavepoint: (n: string) => bound().executeRaw({ sql: `SAVEPOINT ${n}`, args: [], argTypes: [] }),
      rollbackToSavepoint: (n: string) =>
        bound().executeRaw({ sql: `ROLLBACK TO SAVEPOINT ${n}`, args: [], argTypes: [] }),
      releaseSavepoint: (n: string) =>
        bound().executeRaw({ sql: `RELEASE SAVEPOINT ${n}`, args: [], argTypes: [] }),
    };
  }
}

/**
 * A `Db` whose calls wait for `tx()` (the unit's Prisma transaction, started on first use) and then run on
 * it: `u.db.goal.findUnique(…)`, `u.db.$queryRaw…`. Two levels cover every call form the `Db` type allows.
 */
export function lazyDb(tx: () => Promise<Db>): Db {
  const fn = () => undefined;
  return new Proxy(
    {},
    {
      get: (_, key) =>
        new Proxy(fn, {
          get: (_, method) =>
            method === "then"
              ? undefined
              : (...args: unknown[]) =>
                  tx().then((t) =>
                    (t as unknown as Record<PropertyKey, Record<PropertyKey, (...a: unknown[]) => unknown>>)[
                      key
                    ]?.[method]?.(...args),
                  ),
          apply: (_, __, args: unknown[]) =>
            tx().then((t) =>
              (t as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[key]?.(...args),
            ),
        }),
    },
  ) as Db;
}

/**
 * Cross-instance wake-ups, published after commit. The committing process wakes its own waiters at once
 * (`emitLocal`); the other instances hear a NOTIFY sent after the commit, so the data is visible to them
 * before the wake-up. Topics are coalesced: at most one NOTIFY in flight; the topics of the units that
 * commit meanwhile go out together in the next one (one line each, after this process's origin, which its
 * own listener skips). A lost NOTIFY (the process dies between COMMIT and NOTIFY, the connection fails)
 * costs a waiter at most its re-check interval: wake-ups are hints, the database is the truth (lib/bus).
 */
export class Publisher {
  private pending = new Set<string>();
  private flushing: Promise<void> | undefined;
  constructor(private readonly pool: pg.Pool) {}

  publish(topics: Iterable<string>) {
    for (const t of topics) {
      emitLocal(t);
      this.pending.add(t);
    }
    this.flushing ??= this.flush();
  }

  /** Resolves once every topic published so far has been sent. */
  async drain() {
    while (this.flushing) await this.flushing;
  }

  private async flush() {
    await new Promise((r) => setImmediate(r)); // let the units committing in this turn join
    while (this.pending.size > 0) {
      const topics = [...this.pending];
      this.pending = new Set();
      try {
        for (const payload of payloads(publishOrigin(), topics)) {
          traffic.notifies++;
          await this.pool.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, payload]);
        }
      } catch (err) {
        logger.warn({ err }, "could not publish wake-ups to the other instances");
      }
    }
    this.flushing = undefined;
  }
}

/** NOTIFY payloads (at most ~8000 bytes each): the origin, then one topic a line. */
function payloads(origin: string, topics: string[]): string[] {
  const out: string[] = [];
  let cur = origin;
  for (const t of topics) {
    if (cur.length + 1 + t.length > 7_500 && cur !== origin) {
      out.push(cur);
      cur = origin;
    }
    cur += `\n${t}`;
  }
  if (cur !== origin) out.push(cur);
  return out;
}
