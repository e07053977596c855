import { stopAgent } from "@/lib/domain/runner/owner-controls";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/agents/:id/stop – end a runner-managed agent's process, keep the agent (docs/runner.md)
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  stopAgent(owner.userId, idParam(params.id, "agent")),
);
