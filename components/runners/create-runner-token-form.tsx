"use client";

import { useActionState } from "react";
import { type CreateRunnerTokenState, createRunnerTokenAction } from "@/app/runners/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { SecretBox } from "@/components/ui/secret-box";

export function CreateRunnerTokenForm() {
  const [state, action, pending] = useActionState<CreateRunnerTokenState, FormData>(
    createRunnerTokenAction,
    {},
  );
  return (
    <div className="space-y-4 p-5">
      <form action={action} className="flex items-end gap-3">
        <div className="flex-1">
          <Field label="Runner name" htmlFor="runner-name" error={state.fieldErrors?.name ?? state.error}>
            <input
              id="runner-name"
              name="name"
              required
              placeholder="e.g. build-box"
              defaultValue={state.values?.name}
              className={inputClass}
            />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create runner token"}
        </Button>
      </form>
      {state.token ? (
        <div
          className="space-y-2 rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
          data-testid="new-runner-token"
        >
          <p className="text-sm text-amber-900">
            <strong>Runner token “{state.token.name}” created.</strong> Copy it now: it will not be shown
            again. Start a runner with it on any machine that reaches this hub:
          </p>
          <SecretBox value={state.token.secret} label="Runner token" />
          <code className="block rounded bg-white px-3 py-2 font-mono text-xs break-all text-slate-700 ring-1 ring-amber-200">
            npx switchboard runner start --hub {window.location.origin} --token {state.token.secret}
          </code>
        </div>
      ) : null}
    </div>
  );
}
