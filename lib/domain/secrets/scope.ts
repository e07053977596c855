import type { ReadUnit } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { ScopeType } from "./schemas";

/** What a scope belongs to: its owner, its goal (none for `user`), and a label for people. */
export type ScopeInfo = { scopeType: ScopeType; scopeId: number; ownerId: number; goalId: number | null };

/**
 * The scope `scopeType/scopeId` if `ownerId` owns it: `user/<their user id>`, an agent of one of their
 * goals, or a task of one. Anything else, another owner's or nothing, is the same `not_found`.
 */
export async function ownedScope(
  u: ReadUnit,
  ownerId: number,
  scopeType: ScopeType,
  scopeId: number,
): Promise<ScopeInfo> {
  const what = `${scopeType} scope ${scopeId}`;
  if (scopeType === "user") {
    if (scopeId !== ownerId) throw notFound(what);
    return { scopeType, scopeId, ownerId, goalId: null };
  }
  const row =
    scopeType === "agent"
      ? await u.db.agent.findUnique({
          where: { id: scopeId },
          select: { goalId: true, goal: { select: { ownerId: true } } },
        })
      : await u.db.goalTask.findUnique({
          where: { id: scopeId },
          select: { goalId: true, goal: { select: { ownerId: true } } },
        });
  if (!row || row.goal.ownerId !== ownerId) throw notFound(what);
  return { scopeType, scopeId, ownerId, goalId: row.goalId };
}
