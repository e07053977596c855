"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { declineRequest, supplyRequest } from "@/lib/domain/secrets/decide-request";
import { actionError, formSecretValue } from "@/lib/http/form-state";

/** Supply a request's value in the chosen scope. The answer never carries the value. */
export async function supplyAction(requestId: number, form: FormData): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await supplyRequest(owner.userId, requestId, {
      value: await formSecretValue(form),
      scope: String(form.get("scope") ?? "task") as "task",
    });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/requests");
  revalidatePath("/questions");
  revalidatePath("/secrets");
  return {};
}

/** Decline a request; the reason reaches the asking agent's inbox. */
export async function declineAction(requestId: number, reason: string): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await declineRequest(owner.userId, requestId, { reason });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/requests");
  revalidatePath("/questions");
  return {};
}
