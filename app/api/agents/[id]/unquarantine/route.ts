import { unquarantineAgent } from "@/lib/domain/reputation/unquarantine";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/agents/:id/unquarantine – lift an agent's quarantine (wraps unquarantine_agent)
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  unquarantineAgent(owner.userId, idParam(params.id, "agent")),
);
