"use client";

import { useState, useTransition } from "react";
import { saveGoalSettingsAction } from "@/app/settings/notifications/actions";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

/** A goal's override of the owner's settings: mute it, or its own batching window. */
export function GoalSettingsRow({
  goalId,
  title,
  muted,
  batchSeconds,
}: {
  goalId: number;
  title: string;
  muted: boolean;
  batchSeconds: number | null;
}) {
  const [pending, start] = useTransition();
  const [msg, setMsg] = useState<string>();
  return (
    <form
      data-testid="goal-settings"
      data-goal-id={goalId}
      className="flex flex-wrap items-center gap-3 px-5 py-2 text-sm text-slate-700"
      action={(fd) =>
        start(async () => {
          const r = await saveGoalSettingsAction(goalId, fd);
          setMsg(r.error ?? "Saved.");
        })
      }
    >
      <span className="w-64 truncate font-medium text-slate-900">{title}</span>
      <label className="flex items-center gap-1">
        <input type="checkbox" name="muted" defaultChecked={muted} /> Mute
      </label>
      <input
        name="batch_seconds"
        aria-label={`Batch seconds for ${title}`}
        inputMode="numeric"
        defaultValue={batchSeconds ?? ""}
        placeholder="default"
        className={`${inputClass} w-24`}
      />
      <span className="text-xs text-slate-500">s between messages</span>
      <Button type="submit" size="sm" variant="secondary" disabled={pending}>
        Save
      </Button>
      {msg ? <span className="text-xs text-slate-600">{msg}</span> : null}
    </form>
  );
}
