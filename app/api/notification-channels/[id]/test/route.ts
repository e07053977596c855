import { sendTest } from "@/lib/domain/notifications/outbox";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/notification-channels/:id/test – send a test message now; answers {delivery_id, ok, http_status, error}
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  sendTest(owner.userId, idParam(params.id, "notification channel")),
);
