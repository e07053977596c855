import { createHash, randomBytes, randomUUID } from "node:crypto";

/** Prefixes that secret scanners can find. */
export const AGENT_KEY_PREFIX = "sb_agent_";
export const OWNER_TOKEN_PREFIX = "sb_pat_";
/** issue 11: a runner's credential (docs/runner.md). */
export const RUNNER_TOKEN_PREFIX = "sb_runner_";

/** A new secret credential: 256 random bits, base64url, behind a readable prefix. */
export function newSecret(prefix: string): { secret: string; hash: string; display: string } {
  const secret = prefix + randomBytes(32).toString("base64url");
  return { secret, hash: hashSecret(secret), display: `${secret.slice(0, prefix.length + 6)}…` };
}

/** Credentials carry 256 bits of entropy, so a fast hash is enough (no salt or stretching needed). */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A prefixed opaque id for string-keyed records (`team_…`, `plan_…`, `q_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`;
}

export const uuid = randomUUID;

/**
 * The largest value of the database's `Int` columns (PostgreSQL `integer`: 32 bits; SQLite would take more,
 * PostgreSQL refuses it, so both providers take the same bound). Ids and dollar budgets above it name
 * nothing / cannot be stored (token budgets are 64-bit: `MAX_TOKEN_BUDGET`): tool inputs refuse them as `invalid_input` (found by the fuzz test, issue 16 §6).
 */
export const MAX_DB_INT = 2_147_483_647;

/**
 * The largest token budget (`budget_tokens`, `new_budget_tokens`, a task's `budget_tokens`): 10^15. Token
 * counters and budgets are 64-bit columns (`BigInt`, issue 12); this bound keeps every budget, and any spend
 * that can reach it, exact as a JS number (below 2^53 ≈ 9.007 × 10^15) and in JSON (docs/budgets.md, "Limits").
 */
export const MAX_TOKEN_BUDGET = 1_000_000_000_000_000;

/** A decimal id as tools take them in strings (`to`, `agent_id`), or undefined when it cannot name a row. */
export function idFromString(s: string): number | undefined {
  if (!/^\d{1,10}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 && n <= MAX_DB_INT ? n : undefined;
}
