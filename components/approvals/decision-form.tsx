"use client";

import { useState, useTransition } from "react";
import { decideAction } from "@/app/approvals/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";

/** Approve, or reject with a reason; the decision carries the content hash of what is shown. */
export function DecisionForm({ messageId, contentHash }: { messageId: number; contentHash: string }) {
  const [reason, setReason] = useState("");
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
      <FormError message={error} />
      <div className="flex gap-2">
        <Button disabled={pending} onClick={() => decide("approve")}>
          Approve
        </Button>
        <Button variant="danger" disabled={pending || !reason.trim()} onClick={() => decide("reject")}>
          Reject
        </Button>
      </div>
    </div>
  );
}
