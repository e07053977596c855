import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
import { env, isPostgres } from "@/lib/env";

/**
 * Notification bus: wakes blocked tool calls and live pages. Wake-ups are hints; the database is
 * the truth, so every waiter also re-checks the database on a timer.
 *
 * Topics: `agent:<id>` (inbox), `goal:<id>` (events, messages of a goal).
 * SQLite: in-process. PostgreSQL: `LISTEN switchboard`, so a write on one instance wakes a waiter on
 * another. lib/db publishes a unit's topics after its COMMIT: this process's waiters at once, the other
 * instances by one NOTIFY per batch of topics (payload: the sender's origin, then one topic a line; a
 * listener skips its own origin's). A payload without a line break is one topic (older senders).
 */
export const PG_CHANNEL = "switchboard";

type Bus = {
  emitter: EventEmitter;
  /** Set by `drain()` at shutdown: every wait returns at once, and new ones do not start waiting. */
  draining?: boolean;
  listener?: Promise<pg.Client | undefined>;
  /** This process's name in NOTIFY payloads. */
  origin: string;
};

const g = globalThis as unknown as { __switchboardBus?: Bus };

function bus(): Bus {
  if (!g.__switchboardBus) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    g.__switchboardBus = { emitter, origin: `${process.pid}-${randomUUID().slice(0, 8)}` };
  }
  return g.__switchboardBus;
}

/** Deliver a wake-up to this process's subscribers (PostgreSQL listeners call this too). */
export function emitLocal(topic: string): void {
  bus().emitter.emit(topic);
}

/** The origin this process puts in front of the topics it publishes through NOTIFY. */
export function publishOrigin(): string {
  return bus().origin;
}

/** A NOTIFY payload heard on PG_CHANNEL: wake the local subscribers of its topics, unless we sent it. */
function heard(payload: string): void {
  const lines = payload.split("\n");
  if (lines.length === 1) emitLocal(payload);
  else if (lines[0] !== bus().origin) for (let i = 1; i < lines.length; i++) emitLocal(lines[i] as string);
}

async function startListener(url: string): Promise<pg.Client | undefined> {
  const client = new pg.Client({ connectionString: url });
  client.on("notification", (n) => {
    if (n.channel === PG_CHANNEL && n.payload) heard(n.payload);
  });
  client.on("error", () => {
    // The connection died: waiters fall back to their database re-checks; try again later.
    bus().listener = undefined;
    setTimeout(() => ensureListener(), 1000).unref();
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${PG_CHANNEL}`);
    return client;
  } catch {
    bus().listener = undefined;
    return undefined;
  }
}

function ensureListener(): void {
  const url = env().DATABASE_URL;
  const b = bus();
  if (isPostgres(url) && !b.listener) b.listener = startListener(url);
}

/** Subscribe to a topic; returns the unsubscribe function. */
export function subscribe(topic: string, fn: () => void): () => void {
  ensureListener();
  const emitter = bus().emitter;
  emitter.on(topic, fn);
  return () => emitter.off(topic, fn);
}

const DRAIN_TOPIC = "__switchboard_drain__";

/**
 * Graceful shutdown (server/main.ts): every `waitFor` in this process returns as its timeout would (a
 * long-poll answers with what it has, a blocked `ask_user` with `cancelled`, its question still pending),
 * so open calls finish with a result the client understands before the server exits.
 */
export function drain(): void {
  bus().draining = true;
  bus().emitter.emit(DRAIN_TOPIC);
}

/**
 * Wait until `check` returns a value, woken by `topics` or by a re-check every `recheckMs`.
 * Returns undefined when `timeoutMs` passes or `signal` aborts. `onTick` runs every `tickMs`
 * (progress notifications).
 */
export async function waitFor<T>(opts: {
  topics: string[];
  check: () => Promise<T | undefined>;
  timeoutMs: number;
  recheckMs?: number;
  signal?: AbortSignal;
  tickMs?: number;
  onTick?: (elapsedMs: number) => void;
}): Promise<T | undefined> {
  const started = Date.now();
  let wake: () => void = () => {};
  let dirty = false;
  const poke = () => {
    dirty = true;
    wake();
  };
  const unsubs = [...opts.topics, DRAIN_TOPIC].map((t) => subscribe(t, poke));
  const ticker =
    opts.onTick && opts.tickMs
      ? setInterval(() => opts.onTick?.(Date.now() - started), opts.tickMs)
      : undefined;
  opts.signal?.addEventListener("abort", poke);
  try {
    for (;;) {
      dirty = false;
      const found = await opts.check();
      if (found !== undefined) return found;
      const left = opts.timeoutMs - (Date.now() - started);
      if (left <= 0 || opts.signal?.aborted || bus().draining) return undefined;
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, opts.recheckMs ?? 1000));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  } finally {
    for (const u of unsubs) u();
    if (ticker) clearInterval(ticker);
    opts.signal?.removeEventListener("abort", poke);
  }
}
