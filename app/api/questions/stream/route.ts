import { waitFor } from "@/lib/bus";
import { ownerQuestionsStamp } from "@/lib/domain/questions/owner-questions";
import { ownerRoute } from "@/lib/http/rest";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

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
        const key = JSON.stringify(await ownerQuestionsStamp(owner.userId));
        return key !== last ? key : undefined;
      },
    });
    if (!next) return undefined;
    last = next;
    return [`event: questions\ndata: ${next}\n\n`];
  });
});
