"use client";

import { useRef, useState } from "react";
import { useEventSource } from "@/components/ui/use-event-source";
import type { EventView } from "@/lib/domain/events/list-events";
import type { FeedMessage } from "@/lib/domain/goals/queries";

const KEEP_MESSAGES = 500;
const KEEP_EVENTS = 50;

/**
 * The goal's messages and events: the server-rendered ones, then whatever the SSE stream delivers.
 * Reconnects from the last seen cursors, so nothing is shown twice.
 */
export function useGoalStream(
  goalId: number,
  initial: { messages: FeedMessage[]; events: EventView[] },
  onEvent: (event: EventView) => void,
) {
  const [messages, setMessages] = useState(initial.messages);
  const [events, setEvents] = useState(initial.events);
  const cursor = useRef({
    message: initial.messages.at(-1)?.id ?? 0,
    event: initial.events.at(-1)?.seq ?? 0,
  });

  const live = useEventSource(
    String(goalId),
    () =>
      `/api/goals/${goalId}/stream?after_message=${cursor.current.message}&after_event=${cursor.current.event}`,
    {
      message: (data) => {
        const m = JSON.parse(data) as FeedMessage;
        if (m.id <= cursor.current.message) return;
        cursor.current.message = m.id;
        setMessages((prev) => [...prev, m].slice(-KEEP_MESSAGES));
      },
      event: (data) => {
        const ev = JSON.parse(data) as EventView;
        if (ev.seq <= cursor.current.event) return;
        cursor.current.event = ev.seq;
        setEvents((prev) => [...prev, ev].slice(-KEEP_EVENTS));
        onEvent(ev);
      },
    },
  );

  return { messages, events, live };
}
