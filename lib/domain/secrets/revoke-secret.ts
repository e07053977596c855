import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { notFound } from "@/lib/errors";
import { type ScopeType, secretName } from "./schemas";
import { ownedScope } from "./scope";

/**
 * Revoke: the ciphertext is erased (not kept), the row stays as "revoked" so the Secrets page and
 * list_resources show the name as unavailable; it is never delivered again until replaced.
 */
export async function revokeSecret(
  ownerId: number,
  scope_type: ScopeType,
  scope_id: number,
  rawName: string,
) {
  const name = secretName.safeParse(rawName);
  if (!name.success) throw notFound(`secret ${rawName}`);
  return write(async (u) => {
    const scope = await ownedScope(u, ownerId, scope_type, scope_id);
    const row = await u.db.secret.findUnique({
      where: { scopeType_scopeId_name: { scopeType: scope_type, scopeId: scope_id, name: name.data } },
      select: { id: true, ownerId: true },
    });
    if (!row || row.ownerId !== ownerId) throw notFound(`secret ${name.data}`);
    await u.db.secret.update({ where: { id: row.id }, data: { ciphertext: null, revokedAt: new Date() } });
    if (scope.goalId !== null) {
      await appendEvent(u, {
        goalId: scope.goalId,
        name: "secret_revoked",
        data: { name: name.data, scope: scope_type, scope_id },
      });
    }
    return { name: name.data, scope: scope_type, scope_id, available: false };
  });
}

/**
 * The operator's way out when the key is lost (`switchboard secret revoke-all --yes`): every stored value
 * is erased, the rows stay as revoked (names listed as unavailable), so the server starts with a new key
 * and the owners supply the values again. Needs no key. Returns how many values were erased.
 */
export async function revokeAllSecrets(): Promise<{ revoked: number }> {
  return write(async (u) => {
    const { count } = await u.db.secret.updateMany({
      where: { ciphertext: { not: null } },
      data: { ciphertext: null, revokedAt: new Date() },
    });
    return { revoked: count };
  }, "secret revoke-all");
}
