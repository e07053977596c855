import { listNotifications } from "@/lib/domain/notifications/outbox";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/notifications?limit= – the owner's recent notifications
export const GET = ownerRoute(async ({ owner, req }) => ({
  notifications: await listNotifications(
    owner.userId,
    Number(new URL(req.url).searchParams.get("limit")) || 50,
  ),
}));
