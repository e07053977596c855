"use client";

import { useRef, useState, useTransition } from "react";
import { declineAction, supplyAction } from "@/app/requests/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";
import { fileTooLarge } from "./file-limit";

/**
 * Supply a requested value (pasted, or uploaded for `file`) in a chosen scope, or decline with a reason.
 * The value field is write-only: it is cleared after sending and never shown again.
 */
export function SupplyForm({
  requestId,
  resourceType,
  name,
}: {
  requestId: number;
  resourceType: string;
  name: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const supply = (fd: FormData) =>
    start(async () => {
      const tooLarge = fileTooLarge(fd);
      if (tooLarge) return setError(tooLarge);
      const r = await supplyAction(requestId, fd);
      setError(r.error);
      if (!r.error) form.current?.reset();
    });
  const decline = () =>
    start(async () => {
      const r = await declineAction(requestId, reason);
      setError(r.error);
    });
  return (
    <div className="space-y-2 border-t border-slate-100 pt-3">
      <form ref={form} action={supply} className="flex flex-wrap items-end gap-2" data-testid="supply-form">
        {resourceType === "file" ? (
          <input type="file" name="file" aria-label={`File for ${name}`} className="text-sm" required />
        ) : (
          <input
            type="password"
            name="value"
            autoComplete="off"
            aria-label={`Value for ${name}`}
            placeholder={`Paste ${name}`}
            className={`${inputClass} max-w-md`}
            required
          />
        )}
        <select name="scope" aria-label="Scope" className={`${inputClass} w-auto`} defaultValue="task">
          <option value="task">this task</option>
          <option value="agent">this agent</option>
          <option value="user">all my agents</option>
        </select>
        <Button type="submit" disabled={pending}>
          Supply
        </Button>
      </form>
      <div className="flex flex-wrap items-end gap-2">
        <input
          aria-label="Reason for declining"
          placeholder="Reason (required to decline)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className={`${inputClass} max-w-md`}
        />
        <Button variant="danger" disabled={pending || !reason.trim()} onClick={decline}>
          Decline
        </Button>
      </div>
      <FormError message={error} />
    </div>
  );
}
