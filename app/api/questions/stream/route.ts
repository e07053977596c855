import { waitFor } from "@/lib/bus";
import { read } from "@/lib/db";
import { ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";

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
  let last = "";
  return sseResponse(req.signal, async (signal) => {
    const next = await waitFor({
      topics: [`owner:${owner.userId}`],
      timeoutMs: 15_000,
      recheckMs: 3000,
      signal,
      check: async () => {
        const key = JSON.stringify(await stamp(owner.userId));
        return key !== last ? key : undefined;
      },
    });
    if (!next) return undefined;
    last = next;
    return [`event: questions\ndata: ${next}\n\n`];
  });
});
