import { answerAsOwner } from "@/lib/domain/questions/owner-questions";
import { ownerAnswerBody } from "@/lib/domain/questions/schemas";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

// POST /api/questions/:qid/answer – {answers:[{selected_labels, text}]}; the asker's ask_user returns it.
export const POST = ownerRoute<{ qid: string }>(async ({ owner, req, params }) => {
  const body = ownerAnswerBody.parse(await jsonBody(req));
  return answerAsOwner(owner.userId, params.qid, body.answers);
});
