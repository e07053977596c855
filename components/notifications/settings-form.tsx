"use client";

import { useState, useTransition } from "react";
import { saveSettingsAction } from "@/app/settings/notifications/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";

/** The owner's defaults: which kinds, batching window, mute everything. */
export function SettingsForm({
  kinds,
  chosen,
  batchSeconds,
  defaultBatch,
  muted,
}: {
  kinds: { kind: string; label: string }[];
  chosen: string[] | null;
  batchSeconds: number | null;
  defaultBatch: number;
  muted: boolean;
}) {
  const [all, setAll] = useState(chosen === null);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  return (
    <form
      className="space-y-3 p-5"
      data-testid="notification-settings"
      action={(fd) =>
        start(async () => {
          const r = await saveSettingsAction(fd);
          setError(r.error);
          setSaved(!r.error);
        })
      }
    >
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="all_kinds" checked={all} onChange={(e) => setAll(e.target.checked)} />{" "}
        Every kind of event
      </label>
      {all ? null : (
        <div className="flex flex-wrap gap-3">
          {kinds.map((k) => (
            <label key={k.kind} className="flex items-center gap-1 text-sm text-slate-700">
              <input
                type="checkbox"
                name="kinds"
                value={k.kind}
                defaultChecked={chosen?.includes(k.kind) ?? true}
              />
              {k.label}
            </label>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <label className="flex items-center gap-2">
          At most one message per goal every
          <input
            name="batch_seconds"
            aria-label="Batch seconds"
            inputMode="numeric"
            defaultValue={batchSeconds ?? ""}
            placeholder={String(defaultBatch)}
            className={`${inputClass} w-24`}
          />
          seconds (the rest in a digest)
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="muted" defaultChecked={muted} /> Mute all
        </label>
        <Button type="submit" size="sm" disabled={pending}>
          Save
        </Button>
        {saved ? <span className="text-xs text-emerald-700">Saved.</span> : null}
      </div>
      <FormError message={error} />
    </form>
  );
}
