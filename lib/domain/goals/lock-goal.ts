import type { Unit } from "@/lib/db";

/**
 * Takes the goal's row lock for the rest of the unit (a no-op update: PostgreSQL holds the lock to commit,
 * SQLite has one writer anyway) and returns the goal's state read under it; undefined for a missing goal.
 * Every unit that writes a goal's tasks takes it first, so concurrent claims, verdicts, cancellations and
 * pauses queue behind each other instead of deadlocking (budget-gate.ts).
 */
export function lockGoal(u: Unit, goalId: number) {
  return u.sql.get<{ status: string; pausedReason: string | null }>(
    `UPDATE "Goal" SET "eventSeq" = "eventSeq" WHERE id = ? RETURNING status, "pausedReason"`,
    goalId,
  );
}
