"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useEventSource } from "@/components/ui/use-event-source";

/**
 * The owner's inbox, live: one EventSource on /api/questions/stream. Each change refreshes the page's
 * server-rendered list, puts the number of questions waiting in the title, and raises a browser
 * notification for a question that was not there before (when permitted).
 */
export function QuestionsLive({
  initialPending,
  initialCount,
}: {
  initialPending: string[];
  initialCount: number;
}) {
  const router = useRouter();
  // The first event of the feed (sent on connect) sets the baseline: only later arrivals notify.
  const known = useRef<Set<string> | null>(
    initialPending.length < initialCount ? null : new Set(initialPending),
  );
  const [count, setCount] = useState(initialCount);
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">("unsupported");

  useEffect(() => {
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);

  // The count leads the title; re-applied when Next rewrites the title on a refresh.
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(/^\(\d+\) /, "");
      const want = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== want) document.title = want;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [count]);

  const live = useEventSource("questions", () => "/api/questions/stream", {
    questions: (data) => {
      const { pending, count } = JSON.parse(data) as { pending: string[]; count: number };
      const fresh = known.current ? pending.filter((q) => !known.current?.has(q)) : [];
      known.current = new Set(pending);
      setCount(count);
      if (fresh.length > 0 && typeof Notification !== "undefined" && Notification.permission === "granted") {
        new Notification("Switchboard: a question for you", {
          body:
            fresh.length === 1 ? "An agent is waiting for your answer." : `${fresh.length} new questions.`,
          tag: "switchboard-questions",
        });
      }
      router.refresh();
    },
  });

  return (
    <div className="flex items-center gap-3 text-xs text-slate-500">
      <span
        className="rounded-full bg-rose-600 px-2 py-0.5 font-semibold text-white tabular-nums"
        data-testid="unread-count"
        hidden={count === 0}
      >
        {count}
      </span>
      <span className="flex items-center gap-1.5" data-testid="questions-live">
        <span className={`size-2 rounded-full ${live ? "animate-pulse bg-emerald-500" : "bg-slate-300"}`} />
        {live ? "live" : "connecting…"}
      </span>
      {permission === "default" ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => Notification.requestPermission().then((p) => setPermission(p))}
        >
          Enable notifications
        </Button>
      ) : null}
    </div>
  );
}
