"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError, inputClass } from "@/components/ui/field";

type State = { error?: string; email?: string };

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(async (_: State, form: FormData): Promise<State> => {
    const email = String(form.get("email") ?? "");
    const res = await signIn("credentials", {
      redirect: false,
      email,
      password: String(form.get("password") ?? ""),
    });
    if (res?.error === "too_many_attempts") {
      return { error: "Too many failed sign-ins. Wait a few minutes and try again.", email };
    }
    if (!res?.ok || res.error) return { error: "Wrong email or password.", email };
    router.push(callbackUrl);
    return { email };
  }, {});
  return (
    <form action={action} className="space-y-4">
      <Field label="Email" htmlFor="email">
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.email}
          className={inputClass}
        />
      </Field>
      <Field label="Password" htmlFor="password">
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
        />
      </Field>
      <FormError message={state.error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
