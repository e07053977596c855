import { rotateSigningSecret } from "@/lib/domain/notifications/channels";
import { idParam, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/notification-channels/:id/rotate-secret – a webhook's new signing secret, shown once
export const POST = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  rotateSigningSecret(owner.userId, idParam(params.id, "notification channel")),
);
