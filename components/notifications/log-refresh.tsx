"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Refreshes the delivery log when a delivery appears or changes state (polls the REST log). */
export function LogRefresh({ stamp }: { stamp: string }) {
  const router = useRouter();
  useEffect(() => {
    let stopped = false;
    const t = setInterval(async () => {
      try {
        const r = await fetch("/api/notification-deliveries?limit=50", { cache: "no-store" });
        if (!r.ok || stopped) return;
        const { deliveries } = (await r.json()) as {
          deliveries: { id: number; status: string; attempts: number }[];
        };
        if (deliveries.map((d) => `${d.id}:${d.status}:${d.attempts}`).join(",") !== stamp) router.refresh();
      } catch {}
    }, 2000);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, [stamp, router]);
  return <span className="text-xs text-slate-400">refreshes every 2 s</span>;
}
