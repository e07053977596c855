import { declineAsOwner } from "@/lib/domain/questions/owner-questions";
import { ownerDeclineBody } from "@/lib/domain/questions/schemas";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

// POST /api/questions/:qid/decline – {reason}; the asker's ask_user fails with user_declined.
export const POST = ownerRoute<{ qid: string }>(async ({ owner, req, params }) => {
  const body = ownerDeclineBody.parse(await jsonBody(req));
  return declineAsOwner(owner.userId, params.qid, body.reason);
});
