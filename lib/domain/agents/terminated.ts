import type { Unit } from "@/lib/db";
import { type SqlBool, toBool } from "@/lib/db/rows";

/**
 * When an agent has terminated: the one rule, in the three forms the code needs (a loaded row, a Prisma
 * `where`, a SQL condition).
 *
 * Two columns record an end: `status = 'terminated'` (set with `terminateConsumed` when the agent reads
 * its terminate sentinel or the watchdog's grace runs out, and alone when the owner approves a root
 * termination) and `terminateConsumed`. Either one means terminated: its inbox is closed, a question
 * skips it on the way up, it cannot be terminated again, and the watchdog leaves it alone.
 */
const TERMINATED_STATUS = "terminated";

/** The rule on a loaded row: a Prisma result, or a SQL row read in the calling function (`SqlBool`). */
export function isTerminated(a: { status: string; terminateConsumed: SqlBool }): boolean {
  return a.status === TERMINATED_STATUS || toBool(a.terminateConsumed);
}

/** The same rule as a Prisma `where` on Agent, true for an agent that has NOT terminated. */
export const notTerminatedWhere = { status: { not: TERMINATED_STATUS }, terminateConsumed: false };

/**
 * The same rule as a SQL condition, true for an agent that has NOT terminated (valid on both providers:
 * SQLite stores the boolean as 0/1). `alias` qualifies the columns (`notTerminatedSql("a")`).
 */
export function notTerminatedSql(alias?: string): string {
  const c = alias ? `${alias}.` : "";
  return `(${c}status <> '${TERMINATED_STATUS}' AND NOT ${c}"terminateConsumed")`;
}

/**
 * Revoke every key of an agent that has just terminated (in the unit that terminates it). Authentication
 * refuses a terminated agent's key anyway (`agent_retired`, lib/auth/caller.ts); revoking also ends it for
 * good should the agent row ever change again.
 */
export async function revokeAgentKeys(u: Unit, agentId: number): Promise<void> {
  await u.db.apiKey.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: new Date() } });
}
