import { terminateAgentAsOwner } from "@/lib/domain/runner/owner-controls";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/agents/:id/terminate – the owner ends an agent for good (terminate.forced, reason owner)
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  terminateAgentAsOwner(owner.userId, idParam(params.id, "agent")),
);
