import { agentReputation } from "@/lib/domain/reputation/unquarantine";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/agents/:id/reputation – {config_hash, rolling_score, evidence_count, last_evidence_at} (owner-scoped)
export const GET = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  agentReputation(owner.userId, idParam(params.id, "agent")),
);
