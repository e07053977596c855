/**
 * Row types and conversions for hand-written SQL (`u.sql`), whose results differ by provider: SQLite
 * returns a DateTime column as text (Prisma's `2026-01-02T03:04:05.678+00:00`) and a Boolean as 0/1;
 * PostgreSQL returns a Date and a boolean, and an aggregate (`COUNT`, `SUM`) as a bigint. A SQL row type
 * declares such columns with these types, and the code converts them where it reads the row
 * (docs/database.md). Prisma (`u.db`) needs none of this: its results are typed the same on both.
 */
export type SqlDate = Date | string;
export type SqlBool = boolean | number;
/** An aggregate (`COUNT(*)`, `SUM(…)`); plain integer columns come back as numbers on both providers. */
export type SqlInt = number | bigint | string;

export const toDate = (v: SqlDate): Date => (v instanceof Date ? v : new Date(v));
export const toIso = (v: SqlDate): string => toDate(v).toISOString();
export const toBool = (v: SqlBool): boolean => v === true || v === 1;
export const toInt = (v: SqlInt): number => Number(v);

/**
 * A token counter or token budget (`BigInt` columns: `Goal`/`GoalTask` `spentTokens`, `budgetTokens`, the
 * roll-ups' token columns), which Prisma returns as a JS `bigint` on both providers and `u.sql` as a bigint
 * (PostgreSQL `int8`), a number (SQLite) or a numeric string (PostgreSQL `SUM` of an `int8`). As a JS number
 * it is exact up to 2^53 − 1 (`Number.MAX_SAFE_INTEGER`, ~9.007 × 10^15), far above any reachable count and
 * above `MAX_TOKEN_BUDGET` (lib/ids.ts); JSON outputs carry it as a number (docs/budgets.md, "Limits").
 */
export const toTokens = (v: SqlInt): number => Number(v);
export const toTokensOrNull = (v: SqlInt | null): number | null => (v === null ? null : Number(v));

/** A Prisma `Goal` or `GoalTask` row with its token counter and budget as numbers (see `toTokens`). */
export function withTokenNumbers<R extends { spentTokens: bigint; budgetTokens: bigint | null }>(
  row: R,
): Omit<R, "spentTokens" | "budgetTokens"> & { spentTokens: number; budgetTokens: number | null } {
  return { ...row, spentTokens: toTokens(row.spentTokens), budgetTokens: toTokensOrNull(row.budgetTokens) };
}
