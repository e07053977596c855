"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { createToken, revokeToken } from "@/lib/domain/tokens/tokens";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

export type CreateTokenState = FormState & { token?: { name: string; secret: string } };

export async function createTokenAction(_: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const owner = await requireOwner();
  const values = formValues(form, ["name"]);
  try {
    const t = await createToken(owner.userId, { name: values.name ?? "" });
    revalidatePath("/tokens");
    return { token: { name: t.name, secret: t.token } };
  } catch (e) {
    return failure(e, values);
  }
}

export async function revokeTokenAction(tokenId: number): Promise<void> {
  const owner = await requireOwner();
  await revokeToken(owner.userId, tokenId);
  revalidatePath("/tokens");
}
