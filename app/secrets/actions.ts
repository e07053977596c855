"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { revokeSecret } from "@/lib/domain/secrets/revoke-secret";
import type { ScopeType } from "@/lib/domain/secrets/schemas";
import { setSecret } from "@/lib/domain/secrets/set-secret";
import { actionError, formSecretValue } from "@/lib/http/form-state";

/** Set a new secret or replace (rotate) one (pasted text, or an uploaded file); for scope `user` the id is the owner's own. */
export async function setSecretAction(form: FormData): Promise<{ error?: string }> {
  const owner = await requireOwner();
  const scope = String(form.get("scope_type") ?? "") as ScopeType;
  try {
    await setSecret(owner.userId, {
      scope_type: scope,
      scope_id: scope === "user" ? owner.userId : Number(form.get("scope_id")),
      name: String(form.get("name") ?? ""),
      value: await formSecretValue(form),
    });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/secrets");
  revalidatePath("/requests");
  return {};
}

export async function revokeSecretAction(
  scope: ScopeType,
  scopeId: number,
  name: string,
): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await revokeSecret(owner.userId, scope, scopeId, name);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/secrets");
  return {};
}
