import { redeemAction } from "@/lib/domain/notifications/actions";

export const dynamic = "force-dynamic";

// POST /api/notifications/actions/:token – use an action token (the token is the credential; single use)
export async function POST(_req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const r = await redeemAction((await ctx.params).token);
  const status = r.outcome === "done" ? 200 : r.outcome === "invalid" ? 400 : 409;
  return Response.json({ outcome: r.outcome, message: r.message, link: r.link }, { status });
}
