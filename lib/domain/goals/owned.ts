import type { ReadUnit } from "@/lib/db";
import { withTokenNumbers } from "@/lib/db/rows";
import { type DomainError, notFound } from "@/lib/errors";

/**
 * Owner scoping, the one rule: an owner reaches only what belongs to one of their goals. Anything else,
 * another owner's or nothing at all, is the same `not_found` (never reveal which), unless the caller's
 * contract names its own code (`unknown_qid` for questions).
 *
 * `ownerOf` reads the owner of the row's goal (`goal.ownerId`, or a denormalized copy such as
 * `Question.ownerId`); `missing` names the object for `not_found`, or builds the contract's error.
 */
export function owned<T>(
  row: T | null | undefined,
  ownerOf: (row: T) => number | null,
  ownerId: number,
  missing: string | (() => DomainError),
): T {
  if (row === null || row === undefined || ownerOf(row) !== ownerId) {
    throw typeof missing === "string" ? notFound(missing) : missing();
  }
  return row;
}

/**
 * Goal `goalId` if this owner owns it, else `not_found` (inside the caller's unit of work); its token
 * counter and budget (64-bit columns) as numbers.
 */
export async function ownedGoal(u: ReadUnit, ownerId: number, goalId: number) {
  const goal = await u.db.goal.findUnique({ where: { id: goalId } });
  return withTokenNumbers(owned(goal, (g) => g.ownerId, ownerId, `goal ${goalId}`));
}
