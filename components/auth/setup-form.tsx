"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useActionState } from "react";
import { createFirstOwner, type SetupState } from "@/app/setup/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, inputClass } from "@/components/ui/field";

export function SetupForm({ needsToken, token }: { needsToken: boolean; token: string }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(async (prev: SetupState, form: FormData) => {
    const result = await createFirstOwner(prev, form);
    if (result.created) {
      const email = String(form.get("email") ?? "");
      const res = await signIn("credentials", {
        redirect: false,
        email,
        password: String(form.get("password") ?? ""),
      });
      router.push(res?.ok && !res.error ? "/goals" : "/signin");
    }
    return result;
  }, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="space-y-4">
      {needsToken ? (
        <Field
          label="Setup token"
          htmlFor="setup_token"
          error={errors.setup_token}
          hint="Printed on the server's console at start (also in <data>/setup.token)"
        >
          <input
            id="setup_token"
            name="setup_token"
            required
            autoComplete="off"
            defaultValue={state.values?.setup_token ?? token}
            aria-invalid={Boolean(errors.setup_token)}
            className={inputClass}
          />
        </Field>
      ) : null}
      <Field label="Name" htmlFor="name" error={errors.name} hint="Optional">
        <input
          id="name"
          name="name"
          autoComplete="name"
          defaultValue={state.values?.name}
          className={inputClass}
        />
      </Field>
      <Field label="Email" htmlFor="email" error={errors.email}>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email}
          aria-invalid={Boolean(errors.email)}
          className={inputClass}
        />
      </Field>
      <Field label="Password" htmlFor="password" error={errors.password} hint="At least 8 characters">
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={Boolean(errors.password)}
          className={inputClass}
        />
      </Field>
      <FormError message={state.error} />
      <Button type="submit" disabled={pending || state.created} className="w-full">
        {pending || state.created ? "Creating account…" : "Create owner account"}
      </Button>
    </form>
  );
}
