"use client";

import { useRef, useState, useTransition } from "react";
import { revokeSecretAction, setSecretAction } from "@/app/secrets/actions";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { ScopeType } from "@/lib/domain/secrets/schemas";
import { fileTooLarge } from "./file-limit";

/** Replace (rotate) a secret's value (text or a file), or revoke it. The fields are write-only and cleared after sending. */
export function SecretRowActions({
  scope,
  scopeId,
  name,
  available,
}: {
  scope: ScopeType;
  scopeId: number;
  name: string;
  available: boolean;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const replace = (fd: FormData) =>
    start(async () => {
      const tooLarge = fileTooLarge(fd);
      if (tooLarge) return setError(tooLarge);
      const r = await setSecretAction(fd);
      setError(r.error);
      if (!r.error) form.current?.reset();
    });
  const revoke = () =>
    start(async () => {
      const r = await revokeSecretAction(scope, scopeId, name);
      setError(r.error);
    });
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <form ref={form} action={replace} className="flex items-center gap-2">
          <input type="hidden" name="scope_type" value={scope} />
          <input type="hidden" name="scope_id" value={scopeId} />
          <input type="hidden" name="name" value={name} />
          <input
            type="password"
            name="value"
            autoComplete="off"
            aria-label={`New value for ${name}`}
            placeholder="new value"
            className={`${inputClass} w-40`}
          />
          <input type="file" name="file" aria-label={`New file for ${name}`} className="w-44 text-xs" />
          <Button type="submit" size="sm" variant="secondary" disabled={pending}>
            Replace
          </Button>
        </form>
        {available ? (
          <Button size="sm" variant="danger" disabled={pending} onClick={revoke}>
            Revoke
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="text-xs text-rose-600" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
