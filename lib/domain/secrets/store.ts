import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { encryptValue } from "./crypto";
import type { ScopeInfo } from "./scope";

/**
 * Encrypt and store `value` (text, or a file's bytes) as `name` in `scope` (inside the caller's unit): a new row at version 1, or the
 * existing row replaced at version + 1 (rotation; a revoked one comes back). The event names the secret,
 * never the value. Two first stores racing on one name: the loser fails on the unique index and its unit is
 * retried by the caller (`retryOnUniqueViolation`).
 */
export async function storeSecret(u: Unit, scope: ScopeInfo, name: string, value: string | Buffer) {
  const where = { scopeType: scope.scopeType, scopeId: scope.scopeId, name };
  const existing = await u.db.secret.findUnique({
    where: { scopeType_scopeId_name: where },
    select: { id: true, version: true },
  });
  const version = existing ? existing.version + 1 : 1;
  const ciphertext = encryptValue({ ownerId: scope.ownerId, ...where, version }, value);
  const row = existing
    ? await u.db.secret.update({
        where: { id: existing.id },
        data: { ciphertext, version, revokedAt: null },
        select: { id: true },
      })
    : await u.db.secret.create({
        data: { ownerId: scope.ownerId, ...where, ciphertext, version },
        select: { id: true },
      });
  if (scope.goalId !== null) {
    await appendEvent(u, {
      goalId: scope.goalId,
      name: "secret_supplied",
      data: { name, scope: scope.scopeType, scope_id: scope.scopeId, version },
    });
  }
  return { secret_id: row.id, name, scope: scope.scopeType, scope_id: scope.scopeId, version };
}
