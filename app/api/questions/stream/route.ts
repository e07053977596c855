import { waitFor } from "@/lib/bus";
import { read } from "@/lib/db";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** A cheap fingerprint of the owner's questions: changes whenever one is asked, moved or closed. */
async function stamp(ownerId: number) {
  const rows = await read(({ db }) =>
    db.question.findMany({
      where: { ownerId, status: "pending", holderId: null },
      select: { id: true },
      orderBy: { activityAt: "desc" },
      take: 500,
    }),
  );
  const latest = await read(({ db }) =>
    db.question.findFirst({
      where: { ownerId },
      orderBy: { activityAt: "desc" },
      select: { activityAt: true },
    }),
  );
  return { pending: rows.map((r) => r.id), latest: latest?.activityAt.toISOString() ?? null };
}

// GET /api/questions/stream – Server-Sent Events `questions` {pending: [qid…], latest} whenever the
// owner's questions change (woken by the bus on `owner:<userId>`; re-checks every 3 s regardless).
export const GET = ownerRoute(async ({ owner, req }) => {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  req.signal.addEventListener("abort", () => abort.abort());
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
      send("retry: 2000\n\n");
      let last = "";
      try {
        while (!abort.signal.aborted) {
          const next = await waitFor({
            topics: [`owner:${owner.userId}`],
            timeoutMs: 15_000,
            recheckMs: 3000,
            signal: abort.signal,
            check: async () => {
              const s = await stamp(owner.userId);
              const key = JSON.stringify(s);
              return key !== last ? { s, key } : undefined;
            },
          });
          if (!next) {
            send(": keep-alive\n\n");
            continue;
          }
          last = next.key;
          send(`event: questions\ndata: ${next.key}\n\n`);
        }
      } catch {
        // client went away mid-write
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
});
