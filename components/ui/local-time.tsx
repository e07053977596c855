"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** A timestamp in the viewer's time zone; UTC in the server render, local once hydrated. */
export function LocalTime({ iso, mode = "datetime" }: { iso: string; mode?: "datetime" | "time" }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const date = new Date(iso);
  const text = hydrated
    ? mode === "time"
      ? date.toLocaleTimeString()
      : date.toLocaleString()
    : `${mode === "time" ? iso.slice(11, 19) : iso.slice(0, 16).replace("T", " ")} UTC`;
  return (
    <time dateTime={iso} title={iso} className="tabular-nums">
      {text}
    </time>
  );
}
