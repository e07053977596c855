import { waitFor } from "@/lib/bus";
import { ownerInboxStamp, ownerTopic } from "@/lib/domain/owners/inbox";
import { ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

// GET /api/inbox/stream – Server-Sent Events `inbox` {questions: [qid…], requests: [id…], approvals: [id…]}
// (what waits for the owner) whenever it changes; woken by the bus on `owner:<userId>`, re-checked every
// 3 s regardless (a wake-up is a hint). Owner-scoped: only the caller's own items.
export const GET = ownerRoute(async ({ owner, req }) => {
  let last = "";
  return sseResponse(req.signal, async (signal) => {
    const next = await waitFor({
      topics: [ownerTopic(owner.userId)],
      timeoutMs: 15_000,
      recheckMs: 3000,
      signal,
      check: async () => {
        const key = JSON.stringify(await ownerInboxStamp(owner.userId));
        return key !== last ? key : undefined;
      },
    });
    if (!next) return undefined;
    last = next;
    return [`event: inbox\ndata: ${next}\n\n`];
  });
});
