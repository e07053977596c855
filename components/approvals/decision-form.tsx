"use client";

import { useState, useTransition } from "react";
import { decideAction } from "@/app/approvals/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";

/** Approve, or reject with a reason; the decision carries the content hash of what is shown. */
export function DecisionForm({
  messageId,
  contentHash,
  commands = 0,
}: {
  messageId: number;
  contentHash: string;
  /** How many shell commands approving will let a runner execute: the owner confirms reading them. */
  commands?: number;
}) {
  const [reason, setReason] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const decide = (kind: "approve" | "reject") =>
    start(async () => {
      const r = await decideAction(messageId, contentHash, kind, reason);
      setError(r.error);
    });
  return (
    <div className="space-y-2 border-t border-slate-100 pt-3">
      <textarea
        aria-label="Reason for rejecting"
        placeholder="Reason (required to reject)"
        rows={2}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className={inputClass}
      />
      {commands > 0 ? (
        <label className="flex items-center gap-2 text-sm text-amber-900">
          <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />I have
          read the {commands === 1 ? "command" : `${commands} commands`} above and allow a runner to execute{" "}
          {commands === 1 ? "it" : "them"}
        </label>
      ) : null}
      <FormError message={error} />
      <div className="flex gap-2">
        <Button disabled={pending || (commands > 0 && !confirmed)} onClick={() => decide("approve")}>
          Approve
        </Button>
        <Button variant="danger" disabled={pending || !reason.trim()} onClick={() => decide("reject")}>
          Reject
        </Button>
      </div>
    </div>
  );
}
