"use client";

import { useActionState } from "react";
import { saveSkillAction } from "@/app/skills/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, inputClass } from "@/components/ui/field";
import type { SkillView } from "@/lib/domain/skills/skills";
import type { FormState } from "@/lib/http/form-state";

/** Add a skill, or edit one (its name is then fixed). */
export function SkillForm({ skill }: { skill?: SkillView }) {
  const mode = skill ? "edit" : "create";
  const [state, action, pending] = useActionState<FormState, FormData>(saveSkillAction.bind(null, mode), {});
  const v = (k: string, fallback = "") => state.values?.[k] ?? fallback;
  const err = (k: string) => state.fieldErrors?.[k];
  return (
    <form action={action} className="space-y-4 p-5" data-testid="skill-form">
      <FormError
        message={state.fieldErrors && Object.keys(state.fieldErrors).length ? undefined : state.error}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" htmlFor="skill-name" error={err("name")} hint="lowercase, e.g. frontend_engineer">
          <input
            id="skill-name"
            name="name"
            required
            readOnly={!!skill}
            defaultValue={v("name", skill?.name)}
            className={inputClass}
          />
        </Field>
        <Field label="Default model" htmlFor="skill-model" error={err("model")} hint="optional">
          <input
            id="skill-model"
            name="model"
            defaultValue={v("model", skill?.model ?? "")}
            className={inputClass}
          />
        </Field>
      </div>
      <Field label="Description" htmlFor="skill-description" error={err("description")}>
        <input
          id="skill-description"
          name="description"
          required
          defaultValue={v("description", skill?.description)}
          className={inputClass}
        />
      </Field>
      <Field
        label="System prompt"
        htmlFor="skill-prompt"
        error={err("system_prompt")}
        hint="{role_description} is replaced by the member's scope from the plan or team"
      >
        <textarea
          id="skill-prompt"
          name="system_prompt"
          required
          rows={8}
          defaultValue={v("system_prompt", skill?.system_prompt)}
          className={`${inputClass} font-mono`}
        />
      </Field>
      <Field
        label="Allowed tools"
        htmlFor="skill-tools"
        error={err("tools")}
        hint="comma-separated; empty = all"
      >
        <input
          id="skill-tools"
          name="tools"
          defaultValue={v("tools", skill?.tools.join(", "))}
          className={inputClass}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : skill ? "Save skill" : "Add skill"}
      </Button>
    </form>
  );
}
