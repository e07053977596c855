"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { declineRequest, supplyRequest } from "@/lib/domain/secrets/decide-request";
import { actionError } from "@/lib/http/form-state";

/** The value of a supply form: the pasted text, or the uploaded file's text (resource_type `file`). */
async function formValue(form: FormData): Promise<string> {
  const file = form.get("file");
  if (file instanceof File && file.size > 0) return file.text();
  return String(form.get("value") ?? "");
}

/** Supply a request's value in the chosen scope. The answer never carries the value. */
export async function supplyAction(requestId: number, form: FormData): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await supplyRequest(owner.userId, requestId, {
      value: await formValue(form),
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
