import { z } from "zod";
import {
  countOwnerQuestions,
  listOwnerQuestions,
  QUESTION_KINDS,
} from "@/lib/domain/questions/owner-questions";
import { ownerRoute } from "@/lib/http/rest";
import { MAX_DB_INT } from "@/lib/ids";

export const dynamic = "force-dynamic";

const query = z.object({
  status: z.enum(["pending", "in_chain", "answered", "declined", "closed", "all"]).default("pending"),
  goal_id: z.coerce.number().int().positive().max(MAX_DB_INT).optional(),
  kind: z.enum(Object.keys(QUESTION_KINDS) as [keyof typeof QUESTION_KINDS]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});

// GET /api/questions?status=pending&goal_id=&kind=&limit=&offset= – the owner's questions, newest activity
// first (only their goals); pending = waiting for the owner, in_chain = still with an agent of the leader
// chain; kind = agent | review | watchdog | quarantine | budget. `total` counts every match (all pages).
export const GET = ownerRoute(async ({ owner, req }) => {
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  const filter = { status: q.status, goalId: q.goal_id, kind: q.kind };
  const [questions, total] = await Promise.all([
    listOwnerQuestions(owner.userId, { ...filter, limit: q.limit, offset: q.offset }),
    countOwnerQuestions(owner.userId, filter),
  ]);
  return { questions, total };
});
