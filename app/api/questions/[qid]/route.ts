import { getOwnerQuestion } from "@/lib/domain/questions/owner-questions";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/questions/:qid – one question of the owner (unknown_qid for another owner's).
export const GET = ownerRoute<{ qid: string }>(async ({ owner, params }) =>
  getOwnerQuestion(owner.userId, params.qid),
);
