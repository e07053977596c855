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
