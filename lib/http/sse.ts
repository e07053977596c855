import { logger } from "@/lib/log";

/**
 * A Server-Sent Events response. `next` waits for what happened next (it gets the stream's abort signal)
 * and returns the SSE frames to send, or undefined when nothing did (a keep-alive comment goes out).
 * The loop ends when the client leaves; `retry:` tells browsers to reconnect after 2 s.
 */
export function sseResponse(
  clientSignal: AbortSignal,
  next: (signal: AbortSignal) => Promise<string[] | undefined>,
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  clientSignal.addEventListener("abort", () => abort.abort());
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
      send("retry: 2000\n\n");
      try {
        while (!abort.signal.aborted) {
          const frames = await next(abort.signal);
          if (!frames) send(": keep-alive\n\n");
          else for (const f of frames) send(f);
        }
      } catch (err) {
        // The client went away mid-write, or a check failed: then the browser reconnects (`retry:`), and the
        // failure is logged rather than passed off as a departure.
        if (!abort.signal.aborted)
          logger.warn({ err }, "event stream ended by an error; the client reconnects");
      } finally {
        try {
          controller.close();
        } catch {}
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
    },
  });
}
