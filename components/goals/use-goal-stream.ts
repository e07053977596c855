"use client";

import { useEffect, useRef, useState } from "react";
import type { EventView } from "@/lib/domain/events/list-events";
import type { FeedMessage } from "@/lib/domain/goals/queries";

const KEEP_MESSAGES = 500;
const KEEP_EVENTS = 50;
const RECONNECT_MS = 3000;

/**
 * The goal's messages and events: the server-rendered ones, then whatever the SSE stream delivers.
 * Reconnects from the last seen cursors, so nothing is shown twice.
 */
export function useGoalStream(
  goalId: number,
  initial: { messages: FeedMessage[]; events: EventView[] },
  onEvent: (event: EventView) => void,
) {
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const [messages, setMessages] = useState(initial.messages);
  const [events, setEvents] = useState(initial.events);
  const [live, setLive] = useState(false);
  const cursor = useRef({
    message: initial.messages.at(-1)?.id ?? 0,
    event: initial.events.at(-1)?.seq ?? 0,
  });

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const { message, event } = cursor.current;
      source = new EventSource(`/api/goals/${goalId}/stream?after_message=${message}&after_event=${event}`);
      source.onopen = () => setLive(true);
      source.addEventListener("message", (e) => {
        const m = JSON.parse(e.data) as FeedMessage;
        if (m.id <= cursor.current.message) return;
        cursor.current.message = m.id;
        setMessages((prev) => [...prev, m].slice(-KEEP_MESSAGES));
      });
      source.addEventListener("event", (e) => {
        const ev = JSON.parse(e.data) as EventView;
        if (ev.seq <= cursor.current.event) return;
        cursor.current.event = ev.seq;
        setEvents((prev) => [...prev, ev].slice(-KEEP_EVENTS));
        onEventRef.current(ev);
      });
      source.onerror = () => {
        setLive(false);
        source?.close();
        retry = setTimeout(connect, RECONNECT_MS);
      };
    };
    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [goalId]);

  return { messages, events, live };
}
