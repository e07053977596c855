import { read, write } from "@/lib/db";
import { type SqlBool, type SqlDate, toDate } from "@/lib/db/rows";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { DomainError } from "@/lib/errors";
import { AGENT_KEY_PREFIX, hashSecret, OWNER_TOKEN_PREFIX } from "@/lib/ids";

/** Who is calling. Comes only from a credential (API key, token or session), never from input. */
export type Caller =
  | {
      kind: "agent";
      agentId: number;
      goalId: number;
      name: string;
      /** As read at authentication (saves the review gate a read on the calls it lets through). */
      lastToolCallAt?: Date | null;
      /** `Agent.toolScopeJson` as read at authentication (null: every agent tool); lib/domain/agents/tool-scope.ts. */
      toolScopeJson?: string | null;
      /** `Agent.autonomyTier` as read at authentication (absent: autonomous); lib/domain/agents/autonomy.ts. */
      autonomyTier?: string;
    }
  | { kind: "owner"; userId: number; email: string };

/** How often `lastUsedAt` of a credential is refreshed (a write per request would be waste). */
const TOUCH_EVERY_MS = 60_000;

/** Hand-written SQL: authentication is a hot path (docs/database.md). */
type KeyRow = { keyId: number; lastUsedAt: SqlDate | null };

async function touch(
  table: "ApiKey" | "PersonalToken",
  keyId: number,
  lastUsedAt: Date | null,
): Promise<void> {
  const last = lastUsedAt ? lastUsedAt.getTime() : 0;
  if (Date.now() - last < TOUCH_EVERY_MS) return;
  await write(({ sql }) => sql.run(`UPDATE "${table}" SET "lastUsedAt" = ? WHERE id = ?`, new Date(), keyId));
}

const dateOrNull = (v: SqlDate | null): Date | null => (v === null ? null : toDate(v));

/** Goal states in which no agent of the goal may act any more. */

/**
 * Resolve a bearer credential to its caller; undefined when unknown or revoked. An agent key of an agent
 * that has terminated, or of a goal that is completed or cancelled, throws `agent_retired` (its reason in
 * `details.reason`), whether or not the key was revoked when it ended: the caller learns why, and the key
 * will never act again (issue 16, docs/decisions.md).
 */
export async function authenticateBearer(secret: string): Promise<Caller | undefined> {
  if (secret.startsWith(AGENT_KEY_PREFIX)) {
    const row = await read(({ sql }) =>
      sql.get<
        KeyRow & {
          agentId: number;
          goalId: number;
          name: string;
          lastToolCallAt: SqlDate | null;
          toolScopeJson: string | null;
          status: string;
          terminateConsumed: SqlBool;
          goalStatus: string;
          revokedAt: SqlDate | null;
          autonomyTier: string;
        }
      >(
        `SELECT k.id AS "keyId", k."lastUsedAt", a.id AS "agentId", a."goalId", a.name, a."lastToolCallAt", a."toolScopeJson",
                a."autonomyTier", a.status, a."terminateConsumed", g.status AS "goalStatus", k."revokedAt"
         FROM "ApiKey" k JOIN "Agent" a ON a.id = k."agentId" JOIN "Goal" g ON g.id = a."goalId"
         WHERE k.hash = ?`,
        hashSecret(secret),
      ),
    );
    if (!row) return undefined;
    if (isTerminated(row)) {
      throw new DomainError(
        "agent_retired",
        `Agent ${row.agentId} has terminated; its key no longer works.`,
        {
          details: { reason: "agent_terminated" },
        },
      );
    }
    if (FINISHED_GOAL_STATUSES.includes(row.goalStatus)) {
      throw new DomainError(
        "agent_retired",
        `The goal of agent ${row.agentId} is ${row.goalStatus}; its agents' keys no longer work.`,
        { details: { reason: `goal_${row.goalStatus}` } },
      );
    }
    if (row.revokedAt !== null) return undefined;
    await touch("ApiKey", row.keyId, dateOrNull(row.lastUsedAt));
    return {
      kind: "agent",
      agentId: row.agentId,
      goalId: row.goalId,
      name: row.name,
      lastToolCallAt: dateOrNull(row.lastToolCallAt),
      toolScopeJson: row.toolScopeJson,
      autonomyTier: row.autonomyTier,
    };
  }
  if (secret.startsWith(OWNER_TOKEN_PREFIX)) {
    const row = await read(({ sql }) =>
      sql.get<KeyRow & { userId: number; email: string }>(
        `SELECT t.id AS "keyId", t."lastUsedAt", u.id AS "userId", u.email
         FROM "PersonalToken" t JOIN "User" u ON u.id = t."userId"
         WHERE t.hash = ? AND t."revokedAt" IS NULL`,
        hashSecret(secret),
      ),
    );
    if (!row) return undefined;
    await touch("PersonalToken", row.keyId, dateOrNull(row.lastUsedAt));
    return { kind: "owner", userId: row.userId, email: row.email };
  }
  return undefined;
}

/** The bearer secret of an `Authorization: Bearer …` header, if any. */
export function bearerFrom(header: string | null): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m?.[1];
}
