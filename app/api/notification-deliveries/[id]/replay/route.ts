import { replayDelivery } from "@/lib/domain/notifications/outbox";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/notification-deliveries/:id/replay – send the same message (same webhook-id) again
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  Response.json(await replayDelivery(owner.userId, idParam(params.id, "delivery")), { status: 202 }),
);
