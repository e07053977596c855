import { handleSlackInteraction } from "@/lib/domain/notifications/slack-interactive";
import { cappedText } from "@/lib/http/body";
import { idParam } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// POST /api/notifications/slack/:id/interactive – Slack's interactivity callback (verified with the channel's signing secret)
export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  let id: number;
  try {
    id = idParam((await ctx.params).id, "channel");
  } catch {
    return new Response(null, { status: 404 });
  }
  const raw = await cappedText(req);
  if (raw === undefined) return new Response(null, { status: 413 });
  const r = await handleSlackInteraction(id, raw, req.headers);
  return r.body === undefined
    ? new Response(null, { status: r.status })
    : Response.json(r.body, { status: r.status });
}
