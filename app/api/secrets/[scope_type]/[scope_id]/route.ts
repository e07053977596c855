import { listScopeSecrets } from "@/lib/domain/secrets/list-secrets";
import { scopeParams } from "@/lib/domain/secrets/set-secret";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { scope_type: string; scope_id: string };

// GET /api/secrets/:scope_type/:scope_id – [{name, available, last_used_at}] of one of the owner's scopes (no values)
export const GET = ownerRoute<P>(async ({ owner, params }) => {
  const s = scopeParams(params);
  return listScopeSecrets(owner.userId, s.scope_type, s.scope_id);
});
