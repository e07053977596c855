import { revokeSecret } from "@/lib/domain/secrets/revoke-secret";
import {
  type SetSecretInput,
  scopeParams,
  secretValueBody,
  setSecret,
} from "@/lib/domain/secrets/set-secret";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { scope_type: string; scope_id: string; name: string };

// PUT /api/secrets/:scope_type/:scope_id/:name {value} or {file_base64} – set or replace (rotate) a secret;
// answers without the value
export const PUT = ownerRoute<P>(async ({ owner, req, params }) => {
  const s = scopeParams(params);
  // Only `value` / `file_base64` from the body; setSecret checks both (text, or base64 of a file).
  const body = secretValueBody.parse(await jsonBody(req)) as Pick<SetSecretInput, "value" | "file_base64">;
  return setSecret(owner.userId, { ...s, name: params.name, ...body });
});

// DELETE /api/secrets/:scope_type/:scope_id/:name – revoke: the value is erased, the name stays listed as unavailable
export const DELETE = ownerRoute<P>(async ({ owner, params }) => {
  const s = scopeParams(params);
  return revokeSecret(owner.userId, s.scope_type, s.scope_id, params.name);
});
