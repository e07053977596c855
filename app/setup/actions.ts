"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { discardSetupToken, setupAllowed } from "@/lib/auth/setup-token";
import { createOwner } from "@/lib/domain/owners/create-owner";
import { DomainError, isDomainError } from "@/lib/errors";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

export type SetupState = FormState & { created?: boolean };

export async function createFirstOwner(_: SetupState, form: FormData): Promise<SetupState> {
  const values = formValues(form, ["email", "name", "setup_token"]);
  try {
    if (!setupAllowed(await headers(), values.setup_token?.trim() || undefined)) {
      throw new DomainError(
        "setup_token_required",
        "This page was opened from another machine: enter the setup token printed on the server's console.",
        { details: { field: "setup_token" } },
      );
    }
    await createOwner(
      {
        email: values.email ?? "",
        name: values.name || undefined,
        password: String(form.get("password") ?? ""),
      },
      { firstOnly: true },
    );
  } catch (e) {
    if (isDomainError(e) && e.code === "setup_done") redirect("/signin");
    return failure(e, values);
  }
  discardSetupToken();
  return { created: true, values };
}
