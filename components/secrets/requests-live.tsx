"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const POLL_MS = 3000;

/** Refreshes the page when the set of open requests changes (a new request, a decision elsewhere). */
export function RequestsLive({ open }: { open: number[] }) {
  const router = useRouter();
  const key = open.join(",");
  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      try {
        const r = await fetch("/api/requests?status=open", { cache: "no-store" });
        if (r.ok) {
          const rows = (await r.json()) as { request_id: number }[];
          if (!stopped && rows.map((x) => x.request_id).join(",") !== key) router.refresh();
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
