"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireOwner } from "@/lib/auth/require-owner";
import { saveSkill } from "@/lib/domain/skills/skills";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

const FIELDS = ["name", "description", "system_prompt", "tools", "model"] as const;

/** Create (mode "create") or update (mode "edit") a skill from the skill form. */
export async function saveSkillAction(
  mode: "create" | "edit",
  _: FormState,
  form: FormData,
): Promise<FormState> {
  await requireOwner();
  const values = formValues(form, FIELDS);
  try {
    await saveSkill(
      {
        name: values.name ?? "",
        description: values.description ?? "",
        system_prompt: values.system_prompt ?? "",
        tools: (values.tools ?? "")
          .split(/[\s,]+/)
          .map((t) => t.trim())
          .filter(Boolean),
        model: values.model || null,
      },
      { create: mode === "create" },
    );
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/skills");
  redirect("/skills");
}
