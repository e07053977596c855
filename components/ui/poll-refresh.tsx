"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const POLL_MS = 3000;

/**
 * Refreshes the page when the set of ids a JSON list endpoint returns changes (a new item, a decision made
 * elsewhere). `url` answers an array of rows; `idKey` names each row's id field; `ids` is what the page shows.
 */
export function PollRefresh({ url, idKey, ids }: { url: string; idKey: string; ids: number[] }) {
  const router = useRouter();
  const key = ids.join(",");
  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      try {
        const r = await fetch(url, { cache: "no-store" });
        if (r.ok) {
          const rows = (await r.json()) as Record<string, unknown>[];
          if (!stopped && rows.map((x) => x[idKey]).join(",") !== key) router.refresh();
        }
      } catch {}
    };
    const t = setInterval(tick, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, [url, idKey, key, router]);
  return <span className="text-xs text-slate-400">refreshes every {POLL_MS / 1000} s</span>;
}
