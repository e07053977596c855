"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { requireOperator } from "@/lib/domain/runner/runners-view";
import { createRunnerToken, revokeRunnerToken } from "@/lib/domain/runner/tokens";
import { actionError, type FormState, failure, formValues } from "@/lib/http/form-state";

export type CreateRunnerTokenState = FormState & { token?: { id: number; name: string; secret: string } };

/** The operator creates a runner token (shown once; the same as `switchboard runner token create`). */
export async function createRunnerTokenAction(
  _: CreateRunnerTokenState,
  form: FormData,
): Promise<CreateRunnerTokenState> {
  const owner = await requireOwner();
  const values = formValues(form, ["name"]);
  try {
    await requireOperator(owner.userId);
    const t = await createRunnerToken({ name: values.name || undefined });
    revalidatePath("/runners");
    return { token: { id: t.id, name: t.name, secret: t.token } };
  } catch (e) {
    return failure(e, values);
  }
}

export async function revokeRunnerTokenAction(tokenId: number): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await requireOperator(owner.userId);
    await revokeRunnerToken(tokenId);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/runners");
  return {};
}
