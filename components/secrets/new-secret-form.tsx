"use client";

import { useRef, useState, useTransition } from "react";
import { setSecretAction } from "@/app/secrets/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";
import { fileTooLarge } from "./file-limit";

/** Add a secret without a request (pasted text, or a file): for all my agents, one agent, or one task (by id). */
export function NewSecretForm() {
  const form = useRef<HTMLFormElement>(null);
  const [scope, setScope] = useState("user");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const submit = (fd: FormData) =>
    start(async () => {
      const tooLarge = fileTooLarge(fd);
      if (tooLarge) return setError(tooLarge);
      const r = await setSecretAction(fd);
      setError(r.error);
      if (!r.error) form.current?.reset();
    });
  return (
    <form ref={form} action={submit} className="space-y-2 p-5" data-testid="new-secret-form">
      <div className="flex flex-wrap items-end gap-2">
        <input
          name="name"
          required
          aria-label="Name"
          placeholder="NAME"
          className={`${inputClass} w-48 font-mono`}
        />
        <select
          name="scope_type"
          aria-label="Scope"
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          className={`${inputClass} w-auto`}
        >
          <option value="user">all my agents</option>
          <option value="agent">one agent</option>
          <option value="task">one task</option>
        </select>
        {scope === "user" ? null : (
          <input
            name="scope_id"
            required
            inputMode="numeric"
            aria-label={`${scope} id`}
            placeholder={`${scope} id`}
            className={`${inputClass} w-28`}
          />
        )}
        <input
          type="password"
          name="value"
          autoComplete="off"
          aria-label="Value"
          placeholder="value"
          className={`${inputClass} w-64`}
        />
        <span className="text-xs text-slate-500">or</span>
        <input type="file" name="file" aria-label="File" className="w-56 text-sm" />
        <Button type="submit" disabled={pending}>
          Save
        </Button>
      </div>
      <FormError message={error} />
    </form>
  );
}
