import { supplyInput, supplyRequest } from "@/lib/domain/secrets/decide-request";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/requests/:id/supply {value | file_base64, scope: task|agent|user} – supply the value (text, or a
// file's bytes as base64); the agent gets it at its next launch
export const POST = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const body = supplyInput.parse(await jsonBody(req));
  return supplyRequest(owner.userId, idParam(params.id, "request"), body);
});
