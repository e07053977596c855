import { z } from "zod";
import { retryOnUniqueViolation, write } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { satisfyOpenRequests } from "./satisfy-requests";
import { scopeType, secretName, secretValue } from "./schemas";
import { ownedScope } from "./scope";
import { storeSecret } from "./store";

export const setSecretInput = z.strictObject({
  scope_type: scopeType,
  scope_id: z.number().int().positive(),
  name: secretName,
  value: secretValue,
});

/** The REST body of PUT /api/secrets/:scope_type/:scope_id/:name and the Secrets page's forms. */
export const secretValueBody = z.strictObject({ value: secretValue });

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
