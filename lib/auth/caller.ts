import { read, write } from "@/lib/db";
import { type SqlDate, toDate } from "@/lib/db/rows";
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

/** Resolve a bearer credential to its caller; undefined when unknown or revoked. */
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
          autonomyTier: string;
        }
      >(
        `SELECT k.id AS "keyId", k."lastUsedAt", a.id AS "agentId", a."goalId", a.name, a."lastToolCallAt", a."toolScopeJson", a."autonomyTier"
         FROM "ApiKey" k JOIN "Agent" a ON a.id = k."agentId"
         WHERE k.hash = ? AND k."revokedAt" IS NULL`,
        hashSecret(secret),
      ),
    );
    if (!row) return undefined;
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
