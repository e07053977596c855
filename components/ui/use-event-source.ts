"use client";

import { useEffect, useRef, useState } from "react";

const RECONNECT_MS = 3000;

/**
 * An EventSource that reconnects after an error (asking `url()` again, so a caller can resume from its
 * cursors) and dispatches each named SSE event to `listeners`. Returns whether the stream is connected.
 * `key` reconnects from scratch when it changes; a `url()` of null opens nothing.
 */
export function useEventSource(
  key: string,
  url: () => string | null,
  listeners: Record<string, (data: string) => void>,
): boolean {
  const current = useRef({ url, listeners });
  current.current = { url, listeners };
  const [live, setLive] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the reconnect trigger; url/listeners are read through the ref
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const url = current.current.url();
      if (url === null) return;
      source = new EventSource(url);
      source.onopen = () => setLive(true);
      for (const name of Object.keys(current.current.listeners)) {
        source.addEventListener(name, (e) =>
          current.current.listeners[name]?.((e as MessageEvent<string>).data),
        );
      }
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
  }, [key]);
  return live;
}
