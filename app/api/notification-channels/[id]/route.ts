import { deleteChannel, getChannel, updateChannel } from "@/lib/domain/notifications/channels";
import { idParam, jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

const id = (p: { id: string }) => idParam(p.id, "notification channel");

// GET /api/notification-channels/:id
export const GET = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  getChannel(owner.userId, id(params)),
);

// PATCH /api/notification-channels/:id {name?, kinds?, enabled?, url?, …} – enabled: true re-enables a disabled one
export const PATCH = ownerRoute<{ id: string }>(async ({ owner, req, params }) =>
  updateChannel(owner.userId, id(params), await jsonBody(req)),
);

// DELETE /api/notification-channels/:id – with its deliveries
export const DELETE = ownerRoute<{ id: string }>(async ({ owner, params }) =>
  deleteChannel(owner.userId, id(params)),
);
