import { agentTranscript, transcriptQuery } from "@/lib/domain/runner/transcript";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/goals/:id/agents/:agentId/transcript?after=SEQ|before=SEQ&limit=N – one page of the agent's
// transcript (newest page without a cursor) and its run state (docs/runner.md "Transcripts")
export const GET = ownerRoute<{ id: string; agentId: string }>(async ({ owner, req, params }) => {
  const q = transcriptQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return agentTranscript(owner.userId, idParam(params.id, "goal"), idParam(params.agentId, "agent"), q);
});
