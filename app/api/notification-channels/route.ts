import { createChannel, listChannels } from "@/lib/domain/notifications/channels";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/notification-channels – the owner's channels (never their secrets)
export const GET = ownerRoute(async ({ owner }) => ({ channels: await listChannels(owner.userId) }));

// POST /api/notification-channels {kind: webhook|slack|email, name, …} – a webhook's answer carries its signing secret once
export const POST = ownerRoute(async ({ owner, req }) =>
  Response.json(await createChannel(owner.userId, await jsonBody(req)), { status: 201 }),
);
