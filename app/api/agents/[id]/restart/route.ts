import { restartAgent } from "@/lib/domain/runner/launch-jobs";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/agents/:id/restart – queue a stopped, crashed or exited runner-managed agent again
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  restartAgent(idParam(params.id, "agent"), owner.userId),
);
