import { listDeliveries } from "@/lib/domain/notifications/outbox";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/notification-deliveries?channel_id=&limit= – the delivery log, newest first, with every attempt
export const GET = ownerRoute(async ({ owner, req }) => {
  const q = new URL(req.url).searchParams;
  const channel = q.get("channel_id");
  return {
    deliveries: await listDeliveries(owner.userId, {
      channelId: channel ? idParam(channel, "notification channel") : undefined,
      limit: Number(q.get("limit")) || undefined,
    }),
  };
});
