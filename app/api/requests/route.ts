import { listRequests } from "@/lib/domain/secrets/owner-requests";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/requests?status=open|decided&goal_id=N – the owner's resource requests in #requests
export const GET = ownerRoute(async ({ owner, req }) =>
  listRequests(owner.userId, Object.fromEntries(new URL(req.url).searchParams)),
);
