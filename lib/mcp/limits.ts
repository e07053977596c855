import type { Caller } from "@/lib/auth/caller";
import { env } from "@/lib/env";

/**
 * Per-credential limits of the MCP endpoint (issue 16, docs/decisions.md "Limits"), in memory per server
 * process: calls per second (a token bucket; a JSON-RPC batch spends one token per message) and open
 * blocking calls (long-polls, ask_user). Defaults never bother a normal team; every one is configurable.
 */

type Bucket = { tokens: number; at: number };
const buckets = new Map<string, Bucket>();
const openWaits = new Map<string, number>();

/**
 * Spend `n` call tokens of `key`. Returns 0 when allowed, else the milliseconds until `n` tokens are back.
 * The bucket holds two seconds' worth of calls (bursts) and refills at SWITCHBOARD_CALLS_PER_S.
 */
export function takeCalls(key: string, n: number, now = Date.now()): number {
  const rate = env().SWITCHBOARD_CALLS_PER_S;
  const capacity = rate * 2;
  const b = buckets.get(key) ?? { tokens: capacity, at: now };
  b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate);
  b.at = now;
  buckets.set(key, b);
  if (buckets.size > 100_000) pruneBuckets(now, capacity);
  if (b.tokens >= n) {
    b.tokens -= n;
    return 0;
  }
  return Math.ceil(((n - b.tokens) / rate) * 1000);
}

/** Forget buckets that have refilled (they hold no information any more). */
function pruneBuckets(now: number, capacity: number) {
  const rate = env().SWITCHBOARD_CALLS_PER_S;
  for (const [key, b] of buckets)
    if (b.tokens + ((now - b.at) / 1000) * rate >= capacity) buckets.delete(key);
}

/**
 * Hold one of `key`'s open-wait slots for a blocking call; the returned function frees it. Undefined when
 * every slot is taken (SWITCHBOARD_OPEN_WAITS_PER_KEY).
 */
export function holdWaitSlot(key: string): (() => void) | undefined {
  const open = openWaits.get(key) ?? 0;
  if (open >= env().SWITCHBOARD_OPEN_WAITS_PER_KEY) return undefined;
  openWaits.set(key, open + 1);
  let freed = false;
  return () => {
    if (freed) return;
    freed = true;
    const left = (openWaits.get(key) ?? 1) - 1;
    if (left > 0) openWaits.set(key, left);
    else openWaits.delete(key);
  };
}

/** The credential's identity the limits count by. */
export const callerKey = (c: Caller) => (c.kind === "agent" ? `agent:${c.agentId}` : `owner:${c.userId}`);
