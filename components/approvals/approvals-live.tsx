"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const POLL_MS = 3000;

/** Refreshes the page when the set of pending proposals changes (a new proposal, a decision elsewhere). */
export function ApprovalsLive({ pending }: { pending: number[] }) {
  const router = useRouter();
  const key = pending.join(",");
  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      try {
        const r = await fetch("/api/approvals?status=pending", { cache: "no-store" });
        if (r.ok) {
          const rows = (await r.json()) as { proposal_message_id: number }[];
          if (!stopped && rows.map((p) => p.proposal_message_id).join(",") !== key) router.refresh();
        }
      } catch {}
    };
    const t = setInterval(tick, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, [key, router]);
  return <span className="text-xs text-slate-400">refreshes every {POLL_MS / 1000} s</span>;
}
