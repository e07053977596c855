"use client";

import { useActionState } from "react";
import { type CreateTokenState, createTokenAction } from "@/app/tokens/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { SecretBox } from "@/components/ui/secret-box";

export function CreateTokenForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, {});
  return (
    <div className="space-y-4 p-5">
      <form action={action} className="flex items-end gap-3">
        <div className="flex-1">
          <Field label="Token name" htmlFor="token-name" error={state.fieldErrors?.name ?? state.error}>
            <input
              id="token-name"
              name="name"
              required
              placeholder="e.g. laptop CLI"
              defaultValue={state.values?.name}
              className={inputClass}
            />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create token"}
        </Button>
      </form>
      {state.token ? (
        <div className="space-y-2 rounded-md bg-amber-50 p-4 ring-1 ring-amber-200" data-testid="new-token">
          <p className="text-sm text-amber-900">
            <strong>Token “{state.token.name}” created.</strong> Copy it now: it will not be shown again.
          </p>
          <SecretBox value={state.token.secret} label="Personal token" />
        </div>
      ) : null}
    </div>
  );
}
