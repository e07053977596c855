"use client";

import { useRouter } from "next/navigation";
import { useRef } from "react";
import { useEventSource } from "@/components/ui/use-event-source";

/**
 * Every signed-in page, live for what waits for the owner: one EventSource on /api/inbox/stream. When the
 * set of waiting questions, resource requests or proposals differs from what the page was rendered with,
 * the page's server components are refreshed (the nav badges, the inbox, #requests, #approvals); what the
 * owner is typing in a client form stays. `initial` is the stamp the server rendered.
 */
export function InboxLive({ initial }: { initial: string }) {
  const router = useRouter();
  const shown = useRef(initial);
  shown.current = initial;
  const seen = useRef(initial);
  const live = useEventSource("inbox", () => "/api/inbox/stream", {
    inbox: (data) => {
      if (data === seen.current) return;
      seen.current = data;
      if (data !== shown.current) router.refresh();
    },
  });
  return (
    <span
      className="flex items-center gap-1.5 text-xs text-slate-400"
      data-testid="inbox-live"
      data-live={live ? "yes" : "no"}
      title={live ? "Live: new requests, questions and approvals appear without a reload" : "Connecting…"}
    >
      <span className={`size-2 rounded-full ${live ? "bg-emerald-400" : "bg-slate-500"}`} />
      {live ? "live" : "…"}
    </span>
  );
}
