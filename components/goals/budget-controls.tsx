"use client";

import { useState, useTransition } from "react";
import { pauseGoalAction, resumeGoalAction } from "@/app/goals/[id]/actions";
import { Button } from "@/components/ui/button";

/** Pause / Resume (issue 12). Resume asks for the new budget; blank fields keep the current one. */
export function BudgetControls(props: {
  goalId: number;
  status: string;
  budgetCents: number | null;
  budgetTokens: number | null;
}) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [dollars, setDollars] = useState(
    props.budgetCents === null ? "" : (props.budgetCents / 100).toFixed(2),
  );
  const [tokens, setTokens] = useState(props.budgetTokens === null ? "" : String(props.budgetTokens));
  if (props.status === "completed" || props.status === "cancelled") return null;
  const run = (f: () => Promise<{ error: string } | { status: string }>) =>
    start(async () => {
      const r = await f();
      if ("error" in r) setError(r.error);
      else {
        setError(null);
        setOpen(false);
      }
    });
  if (props.status !== "paused") {
    return (
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={pending}
          onClick={() => run(() => pauseGoalAction(props.goalId))}
          data-testid="pause-goal"
        >
          Pause goal
        </Button>
        {error && <span className="text-xs text-rose-700">{error}</span>}
      </div>
    );
  }
  return (
    <div className="space-y-2" data-testid="resume-form">
      {!open ? (
        <Button size="sm" onClick={() => setOpen(true)} data-testid="resume-goal">
          Resume…
        </Button>
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => resumeGoalAction(props.goalId, dollars, tokens));
          }}
        >
          <label className="text-xs text-slate-600">
            New budget ($)
            <input
              name="budget_dollars"
              className="mt-0.5 block w-28 rounded-md border border-slate-300 px-2 py-1 text-sm"
              value={dollars}
              onChange={(e) => setDollars(e.target.value)}
              inputMode="decimal"
            />
          </label>
          <label className="text-xs text-slate-600">
            Token budget
            <input
              name="budget_tokens"
              className="mt-0.5 block w-32 rounded-md border border-slate-300 px-2 py-1 text-sm"
              value={tokens}
              onChange={(e) => setTokens(e.target.value)}
              inputMode="numeric"
            />
          </label>
          <Button type="submit" size="sm" disabled={pending} data-testid="resume-submit">
            Resume goal
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setOpen(false)}>
            Keep paused
          </Button>
        </form>
      )}
      {error && (
        <p className="text-xs text-rose-700" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
