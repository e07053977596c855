"use client";

import { useState, useTransition } from "react";
import { cancelGoalAction, cancelTaskAction } from "@/app/goals/[id]/lifecycle-actions";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

/** Cancel goal: asks for an optional reason (the agents, proposers and askers receive it), then confirms. */
export function GoalCancelControl({ goalId }: { goalId: number }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  if (!open) {
    return (
      <div className="flex justify-end">
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="cancel-goal">
          Cancel goal…
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-2 rounded-lg bg-white p-4 text-sm shadow-xs ring-1 ring-slate-200">
      <p className="text-slate-700">
        Cancelling stops every agent of this goal, cancels its unfinished tasks, and closes its pending
        proposals, questions and requests. It cannot be undone.
      </p>
      <label className="block">
        <span className="text-xs text-slate-500">Reason (optional; the agents receive it)</span>
        <input
          className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1"
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
          data-testid="cancel-goal-reason"
        />
      </label>
      {error ? <FormError message={error} /> : null}
      <div className="flex gap-2">
        <Button
          size="sm"
          disabled={pending}
          data-testid="cancel-goal-confirm"
          onClick={() =>
            start(async () => {
              const r = await cancelGoalAction(goalId, reason);
              if ("error" in r) setError(r.error);
              else setOpen(false);
            })
          }
        >
          {pending ? "Cancelling…" : "Cancel the goal"}
        </Button>
        <Button variant="secondary" size="sm" disabled={pending} onClick={() => setOpen(false)}>
          Keep it
        </Button>
      </div>
    </div>
  );
}

/** Write off one failed task (cancel it), so that a stuck goal can complete. */
export function WriteOffButton({ goalId, taskId }: { goalId: number; taskId: number }) {
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await cancelTaskAction(goalId, taskId);
            setError("error" in r ? r.error : undefined);
          })
        }
      >
        {pending ? "Writing off…" : "Write off"}
      </Button>
      {error ? <span className="text-rose-700">{error}</span> : null}
    </>
  );
}
