import { getSettings, putSettings } from "@/lib/domain/notifications/settings";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/notification-settings – the owner's defaults and per-goal overrides
export const GET = ownerRoute(async ({ owner }) => getSettings(owner.userId));

// PUT /api/notification-settings {goal_id?, kinds?, channels?, batch_seconds?, muted?} – owner row, or a goal's
export const PUT = ownerRoute(async ({ owner, req }) => putSettings(owner.userId, await jsonBody(req)));
