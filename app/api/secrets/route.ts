import { listOwnerSecrets } from "@/lib/domain/secrets/list-secrets";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/secrets – every secret of the owner by scope (names, availability, created / last used / used by; no values)
export const GET = ownerRoute(async ({ owner }) => listOwnerSecrets(owner.userId));
