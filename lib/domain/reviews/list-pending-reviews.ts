import { z } from "zod";
import { type ReadUnit, read } from "@/lib/db";
import { type SqlDate, toDate } from "@/lib/db/rows";

export const listPendingReviewsInput = z.strictObject({});

export const pendingReview = z.object({
  agent_id: z.string(),
  role: z.string(),
  review_pending_ts: z.number().nullable(),
  age_s: z.number().nullable(),
  summary: z.string(),
  name: z.string().nullable(),
});

/** The contract returns a bare list; MCP structured content must be an object, so it is wrapped. */
export const listPendingReviewsOutput = z.object({ reviews: z.array(pendingReview) });

type PendingChild = {
  id: number;
  name: string;
  role: string;
  skill: string | null;
  reviewPendingAt: Date | null;
  reviewDetail: string | null;
};

/** Direct children of `leaderId` (members of teams it leads, or agents it leads) with a pending review. */
export async function pendingChildren(u: ReadUnit, leaderId: number): Promise<PendingChild[]> {
  const rows = await u.sql.all<Omit<PendingChild, "reviewPendingAt"> & { reviewPendingAt: SqlDate | null }>(
    `SELECT a.id, a.name, a.role, a.skill, a."reviewPendingAt", a."reviewDetail" FROM "Agent" a
     WHERE a."reviewPending" = ? AND a.id <> ?
       AND (a."leaderId" = ? OR a."teamId" IN (SELECT t.id FROM "Team" t WHERE t."leaderId" = ?))`,
    true,
    leaderId,
    leaderId,
    leaderId,
  );
  return rows.map((r) => ({
    ...r,
    reviewPendingAt: r.reviewPendingAt === null ? null : toDate(r.reviewPendingAt),
  }));
}

/** `list_pending_reviews`: oldest pending review first; entries without a timestamp last. */
export async function listPendingReviews(caller: { agentId: number }) {
  const rows = await read((u) => pendingChildren(u, caller.agentId));
  const now = Date.now();
  const reviews = rows.map((r) => {
    const ts = r.reviewPendingAt ? r.reviewPendingAt.getTime() / 1000 : null;
    return {
      agent_id: String(r.id),
      role: r.skill ?? r.role,
      review_pending_ts: ts,
      age_s: ts === null ? null : Math.max(0, now / 1000 - ts),
      summary: r.reviewDetail ?? "",
      name: r.name,
    };
  });
  reviews.sort((a, b) => (a.review_pending_ts ?? Infinity) - (b.review_pending_ts ?? Infinity));
  return { reviews };
}
