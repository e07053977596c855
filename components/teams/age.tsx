"use client";

import { useEffect, useState } from "react";

/** Seconds since `since`, ticking every second. */
export function Age({ since }: { since: string }) {
  const [now, setNow] = useState<number>();
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  if (now === undefined) return <span>…</span>;
  const s = Math.max(0, Math.round((now - new Date(since).getTime()) / 1000));
  return <span className="tabular-nums">{s < 120 ? `${s} s` : `${Math.round(s / 60)} min`}</span>;
}
