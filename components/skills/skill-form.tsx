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
      <fieldset className="grid gap-4 sm:grid-cols-3" data-testid="skill-limit-fields">
        <legend className="mb-2 text-sm font-medium">Limits (empty = none)</legend>
        <Field label="Max turns" htmlFor="skill-max-turns" error={err("max_turns")} hint="per launch">
          <input
            id="skill-max-turns"
            name="max_turns"
            type="number"
            min={1}
            step={1}
            defaultValue={v("max_turns", skill?.max_turns?.toString() ?? "")}
            className={inputClass}
          />
        </Field>
        <Field label="Max minutes" htmlFor="skill-max-minutes" error={err("max_minutes")} hint="per launch">
          <input
            id="skill-max-minutes"
            name="max_minutes"
            type="number"
            min={1}
            step={1}
            defaultValue={v("max_minutes", skill?.max_minutes?.toString() ?? "")}
            className={inputClass}
          />
        </Field>
        <Field
          label="Max cost (cents)"
          htmlFor="skill-max-cost"
          error={err("max_cost_cents")}
          hint="per agent, all launches"
        >
          <input
            id="skill-max-cost"
            name="max_cost_cents"
            type="number"
            min={1}
            step={1}
            defaultValue={v("max_cost_cents", skill?.max_cost_cents?.toString() ?? "")}
            className={inputClass}
          />
        </Field>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : skill ? "Save skill" : "Add skill"}
      </Button>
    </form>
  );
}
