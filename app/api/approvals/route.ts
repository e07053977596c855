import { listApprovals } from "@/lib/domain/proposals/list-approvals";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/approvals?status=pending|decided – the owner's task-tree proposals in #approvals
export const GET = ownerRoute(async ({ owner, req }) =>
  listApprovals(owner.userId, Object.fromEntries(new URL(req.url).searchParams)),
);
