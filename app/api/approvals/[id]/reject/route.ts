import { decideProposal, rejectInput } from "@/lib/domain/proposals/decide-proposal";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/approvals/:id/reject {reason, content_hash?} – reject a proposal; the reason goes to the proposer
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = rejectInput.parse(await jsonBody(req));
  return decideProposal(owner.userId, idParam(params.id, "proposal"), { kind: "reject", ...body });
});
