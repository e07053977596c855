import { z } from "zod";
import { getOwnedGoal, listGoalMessages } from "@/lib/domain/goals/queries";
import { idParam, ownerRoute } from "@/lib/http/rest";
import { MAX_DB_INT } from "@/lib/ids";

export const dynamic = "force-dynamic";

const query = z.object({
  after: z.coerce.number().int().min(0).max(MAX_DB_INT).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

// GET /api/goals/:id/messages?after=ID – the goal's messages (inboxes and channel posts), oldest first
export const GET = ownerRoute<{ id: string }>(async ({ owner, req, params }) => {
  const goal = await getOwnedGoal(owner.userId, idParam(params.id, "goal"));
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return { messages: await listGoalMessages(goal.id, q.after, q.limit) };
});
