"use client";

import { useLayoutEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { USER_SENTINEL } from "@/lib/domain/constants";
import type { FeedMessage } from "@/lib/domain/goals/queries";

const sender = (m: FeedMessage) => m.from_name ?? (m.from === USER_SENTINEL ? "owner" : m.from);
const recipient = (m: FeedMessage) => m.to_name ?? m.channel ?? (m.to === null ? null : `#${m.to}`);

/** Messages oldest first; stays scrolled to the newest unless the reader scrolled up. */
export function MessageFeed({ messages }: { messages: FeedMessage[] }) {
  const box = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  const lastId = messages.at(-1)?.id;

  useLayoutEffect(() => {
    if (lastId !== undefined && atBottom.current && box.current)
      box.current.scrollTop = box.current.scrollHeight;
  }, [lastId]);

  if (messages.length === 0) {
    return <p className="px-5 py-10 text-center text-sm text-slate-500">No messages yet.</p>;
  }
  return (
    <ol
      ref={box}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
      className="max-h-[36rem] divide-y divide-slate-100 overflow-y-auto"
      data-testid="message-feed"
    >
      {messages.map((m) => (
        <li key={m.id} className="px-5 py-3">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
            <span className="font-semibold text-slate-900">{sender(m)}</span>
            {recipient(m) ? (
              <>
                <span className="text-slate-400">→</span>
                <span className="font-medium text-slate-700">{recipient(m)}</span>
              </>
            ) : null}
            <Badge tone={m.kind === "message" ? "blue" : "slate"}>{m.kind}</Badge>
            <span className="ml-auto text-slate-400">
              <LocalTime iso={m.created_at} mode="time" />
            </span>
          </div>
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-700">{m.content}</p>
        </li>
      ))}
    </ol>
  );
}
