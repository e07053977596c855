"use client";

import { useActionState } from "react";
import { createGoalAction } from "@/app/goals/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, inputClass } from "@/components/ui/field";
import type { FormState } from "@/lib/http/form-state";

export function NewGoalForm({ templates = ["default"] }: { templates?: string[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(createGoalAction, {});
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  const invalid = (name: string) => ({ "aria-invalid": Boolean(errors[name]) });
  return (
    <form action={action} className="space-y-4 p-5" noValidate>
      <Field label="Title" htmlFor="title" error={errors.title}>
        <input
          id="title"
          name="title"
          required
          defaultValue={values.title}
          {...invalid("title")}
          className={inputClass}
        />
      </Field>
      <Field
        label="Description"
        htmlFor="description"
        error={errors.description}
        hint="What should the team achieve?"
      >
        <textarea
          id="description"
          name="description"
          rows={4}
          required
          defaultValue={values.description}
          {...invalid("description")}
          className={inputClass}
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Budget (cents)"
          htmlFor="budget_dollars_cents"
          error={errors.budget_dollars_cents}
          hint="Optional"
        >
          <input
            id="budget_dollars_cents"
            name="budget_dollars_cents"
            type="number"
            min={0}
            inputMode="numeric"
            defaultValue={values.budget_dollars_cents}
            {...invalid("budget_dollars_cents")}
            className={inputClass}
          />
        </Field>
        <Field label="Budget (tokens)" htmlFor="budget_tokens" error={errors.budget_tokens} hint="Optional">
          <input
            id="budget_tokens"
            name="budget_tokens"
            type="number"
            min={0}
            inputMode="numeric"
            defaultValue={values.budget_tokens}
            {...invalid("budget_tokens")}
            className={inputClass}
          />
        </Field>
      </div>
      <Field
        label="Max spawn depth"
        htmlFor="max_spawn_depth"
        error={errors.max_spawn_depth}
        hint="1–10 levels below the coordinator"
      >
        <input
          id="max_spawn_depth"
          name="max_spawn_depth"
          type="number"
          min={1}
          max={10}
          defaultValue={values.max_spawn_depth ?? "3"}
          {...invalid("max_spawn_depth")}
          className={inputClass}
        />
      </Field>
      <Field
        label="Coordinator"
        htmlFor="coordinator_config"
        error={errors.coordinator_config}
        hint="The coordinator template that runs this goal"
      >
        <select
          id="coordinator_config"
          name="coordinator_config"
          defaultValue={values.coordinator_config ?? "default"}
          {...invalid("coordinator_config")}
          className={inputClass}
        >
          {templates.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </Field>
      <FormError message={state.error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Creating…" : "Create goal"}
      </Button>
    </form>
  );
}
