import { z } from "zod";
import { listOwnerQuestions } from "@/lib/domain/questions/owner-questions";
import { ownerRoute } from "@/lib/http/rest";
import { MAX_DB_INT } from "@/lib/ids";

export const dynamic = "force-dynamic";

const query = z.object({
  status: z.enum(["pending", "in_chain", "answered", "declined", "closed", "all"]).default("pending"),
  goal_id: z.coerce.number().int().positive().max(MAX_DB_INT).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

// GET /api/questions?status=pending – the owner's questions, newest activity first (only their goals);
// pending = waiting for the owner, in_chain = still with an agent of the leader chain.
export const GET = ownerRoute(async ({ owner, req }) => {
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return {
    questions: await listOwnerQuestions(owner.userId, {
      status: q.status,
      goalId: q.goal_id,
      limit: q.limit,
    }),
  };
});
