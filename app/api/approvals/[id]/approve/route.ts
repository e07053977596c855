import { approveInput, decideProposal } from "@/lib/domain/proposals/decide-proposal";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/approvals/:id/approve {content_hash?} – approve a proposal (:id = proposal_message_id)
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = approveInput.parse(await jsonBody(req));
  return decideProposal(owner.userId, idParam(params.id, "proposal"), { kind: "approve", ...body });
});
