import { revokeSecret } from "@/lib/domain/secrets/revoke-secret";
import { scopeParams, secretValueBody, setSecret } from "@/lib/domain/secrets/set-secret";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { scope_type: string; scope_id: string; name: string };

// PUT /api/secrets/:scope_type/:scope_id/:name {value} – set or replace (rotate) a secret; answers without the value
export const PUT = ownerRoute<P>(async ({ owner, req, params }) => {
  const s = scopeParams(params);
  const { value } = secretValueBody.parse(await jsonBody(req));
  return setSecret(owner.userId, { ...s, name: params.name, value });
});

// DELETE /api/secrets/:scope_type/:scope_id/:name – revoke: the value is erased, the name stays listed as unavailable
export const DELETE = ownerRoute<P>(async ({ owner, params }) => {
  const s = scopeParams(params);
  return revokeSecret(owner.userId, s.scope_type, s.scope_id, params.name);
});
