"use server";

import { redirect } from "next/navigation";
import { createOwner } from "@/lib/domain/owners/create-owner";
import { isDomainError } from "@/lib/errors";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

export type SetupState = FormState & { created?: boolean };

export async function createFirstOwner(_: SetupState, form: FormData): Promise<SetupState> {
  const values = formValues(form, ["email", "name"]);
  try {
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
  return { created: true, values };
}
