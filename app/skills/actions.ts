"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireOwner } from "@/lib/auth/require-owner";
import { copySkill, deleteSkill, saveSkill } from "@/lib/domain/skills/skills";
import { actionError, type FormState, failure, formValues } from "@/lib/http/form-state";

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

/**
 * Create (mode "create") or update (mode "edit") one of the signed-in owner's skills from the skill form.
 * A built-in is refused (skill_builtin_read_only: copy it to edit); another owner's skill is not found.
 */
export async function saveSkillAction(
  mode: "create" | "edit",
  _: FormState,
  form: FormData,
): Promise<FormState> {
  const owner = await requireOwner();
  const values = formValues(form, FIELDS);
  try {
    await saveSkill(
      owner.userId,
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

/**
 * Copy to edit: the owner's own copy of the skill `name` (a built-in, or their own) under the form's `name`
 * (empty: the same name, which then replaces the built-in for the owner's agents); then its edit page.
 */
export async function copySkillAction(name: string, _: FormState, form: FormData): Promise<FormState> {
  const owner = await requireOwner();
  const values = formValues(form, ["name"]);
  let copy: string;
  try {
    copy = (await copySkill(owner.userId, name, values.name)).name;
  } catch (e) {
    return failure(e, values);
  }
  revalidatePath("/skills");
  redirect(`/skills/${encodeURIComponent(copy)}`);
}

/** Delete one of the owner's own skills (a built-in of that name, if any, then applies again). */
export async function deleteSkillAction(name: string): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await deleteSkill(owner.userId, name);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/skills");
  redirect("/skills");
}
