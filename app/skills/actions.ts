"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireOwner } from "@/lib/auth/require-owner";
import { saveSkill } from "@/lib/domain/skills/skills";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

const FIELDS = [
  "name",
  "description",
  "system_prompt",
  "tools",
  "model",
  "max_turns",
  "max_minutes",
  "max_cost_cents",
] as const;

/** A limit field: empty is no limit; anything else goes to the schema as a number (it says what is wrong). */
const limit = (v: string | undefined) => (v?.trim() ? Number(v.trim()) : null);

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
        max_turns: limit(values.max_turns),
        max_minutes: limit(values.max_minutes),
        max_cost_cents: limit(values.max_cost_cents),
      },
      { create: mode === "create" },
    );
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/skills");
  redirect("/skills");
}
