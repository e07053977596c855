"use client";

import { useState, useTransition } from "react";
import { deleteSkillAction } from "@/app/skills/actions";
import { Button } from "@/components/ui/button";

/** Delete one of the owner's own skills (a built-in of that name then applies again). */
export function SkillDeleteButton({ name, replacesBuiltin }: { name: string; replacesBuiltin: boolean }) {
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  return (
    <div className="flex items-center gap-3 p-5">
      <Button
        variant="danger"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await deleteSkillAction(name);
            setError(r?.error);
          })
        }
      >
        {pending ? "Deleting…" : replacesBuiltin ? "Delete my copy (use the built-in)" : "Delete skill"}
      </Button>
      {error ? <span className="text-sm text-rose-700">{error}</span> : null}
    </div>
  );
}
