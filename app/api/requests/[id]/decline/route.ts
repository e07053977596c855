import { declineInput, declineRequest } from "@/lib/domain/secrets/decide-request";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/requests/:id/decline {reason} – decline a request; the reason reaches the asking agent's inbox
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = declineInput.parse(await jsonBody(req));
  return declineRequest(owner.userId, idParam(params.id, "request"), body);
});
