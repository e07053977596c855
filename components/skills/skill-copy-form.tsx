"use client";

import { useActionState } from "react";
import { copySkillAction } from "@/app/skills/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, inputClass } from "@/components/ui/field";
import type { FormState } from "@/lib/http/form-state";

/**
 * Copy to edit: a built-in is read-only; the owner's copy (same name by default, which then replaces the
 * built-in for the owner's agents, or a new name) is theirs to edit.
 */
export function SkillCopyForm({ name }: { name: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(copySkillAction.bind(null, name), {});
  return (
    <form action={action} className="space-y-4 p-5" data-testid="skill-copy-form">
      <FormError
        message={state.fieldErrors && Object.keys(state.fieldErrors).length ? undefined : state.error}
      />
      <Field
        label="Name of your copy"
        htmlFor="skill-copy-name"
        error={state.fieldErrors?.name}
        hint="the same name replaces the built-in for your agents; another name adds a skill"
      >
        <input
          id="skill-copy-name"
          name="name"
          className={inputClass}
          defaultValue={state.values?.name ?? name}
          autoComplete="off"
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Copying…" : "Copy to edit"}
      </Button>
    </form>
  );
}
