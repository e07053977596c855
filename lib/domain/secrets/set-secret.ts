import { z } from "zod";
import { read, retryOnUniqueViolation, write } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { satisfyOpenRequests } from "./satisfy-requests";
import { onePlain, plainFields, scopeType, secretName } from "./schemas";
import { ownedScope } from "./scope";
import { storeSecret } from "./store";

/** `value`: text (an environment variable) or a file's bytes (a Buffer, or `file_base64` in JSON). */
export const setSecretInput = z
  .strictObject({
    scope_type: scopeType,
    scope_id: z.number().int().positive().max(MAX_DB_INT),
    name: secretName,
    ...plainFields,
  })
  .transform(onePlain);

export type SetSecretInput = z.input<typeof setSecretInput>;

/**
 * The REST body of PUT /api/secrets/:scope_type/:scope_id/:name: `{value}` or `{file_base64}` and nothing
 * else (both are checked by setSecretInput).
 */
export const secretValueBody = z.strictObject({
  value: z.unknown().optional(),
  file_base64: z.unknown().optional(),
});

/** Path parameters `:scope_type/:scope_id` (anything else names nothing: `not_found`). */
export function scopeParams(p: { scope_type?: string; scope_id?: string }) {
  const type = scopeType.safeParse(p.scope_type);
  const id = /^\d{1,10}$/.test(p.scope_id ?? "") ? Number(p.scope_id) : Number.NaN;
  if (!type.success || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647)
    throw notFound(`scope ${p.scope_type}/${p.scope_id}`);
  return { scope_type: type.data, scope_id: id };
}

/**
 * The owner sets (or replaces: rotation) a secret in one of their scopes. Open requests it answers are
 * closed and their agents told. Returns its identity, never the value.
 */
export async function setSecret(ownerId: number, input: z.input<typeof setSecretInput>) {
  const data = setSecretInput.parse(input);
  return retryOnUniqueViolation(
    () =>
      write(async (u) => {
        const scope = await ownedScope(u, ownerId, data.scope_type, data.scope_id);
        const stored = await storeSecret(u, scope, data.name, data.value);
        await satisfyOpenRequests(u, scope, data.name);
        return {
          name: stored.name,
          scope: stored.scope,
          scope_id: stored.scope_id,
          version: stored.version,
          available: true,
        };
      }),
    3,
  );
}

/**
 * The operator's `switchboard secret set`: the owner is the scope's own (a user id for `user`, the goal's
 * owner for an agent or a task); a scope that does not exist is `not_found`.
 */
export async function setSecretAsOperator(input: z.input<typeof setSecretInput>) {
  const data = setSecretInput.parse(input);
  const ownerId = await read(async (u) => {
    if (data.scope_type === "user") {
      const user = await u.db.user.findUnique({ where: { id: data.scope_id }, select: { id: true } });
      return user?.id;
    }
    const row =
      data.scope_type === "agent"
        ? await u.db.agent.findUnique({
            where: { id: data.scope_id },
            select: { goal: { select: { ownerId: true } } },
          })
        : await u.db.goalTask.findUnique({
            where: { id: data.scope_id },
            select: { goal: { select: { ownerId: true } } },
          });
    return row?.goal.ownerId;
  });
  if (ownerId === undefined) throw notFound(`${data.scope_type} scope ${data.scope_id}`);
  return setSecret(ownerId, data);
}
