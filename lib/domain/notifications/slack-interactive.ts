import { createHmac, timingSafeEqual } from "node:crypto";
import { read } from "@/lib/db";
import { logger } from "@/lib/log";
import { redeemAction, verifyAction } from "./actions";
import { channelSecrets } from "./channels";
import { guardedPost } from "./ssrf";

/**
 * Slack interactivity (a Slack app's buttons on our messages): the callback is verified with the app's
 * signing secret (`X-Slack-Signature: v0=hex(HMAC-SHA256(secret, "v0:" + timestamp + ":" + raw body))`,
 * and a timestamp within 5 minutes), its button's `value` is a signed action token of the channel's owner,
 * and the answer goes through the browser's operation (redeemAction). The Slack message is then updated
 * through the callback's `response_url`: the buttons replaced by who answered what.
 */
export const SLACK_TOLERANCE_S = 300;

export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

function verified(secret: string, ts: string | null, sig: string | null, body: string, now: number): boolean {
  if (!ts || !sig || !/^\d{1,12}$/.test(ts)) return false;
  if (Math.abs(now / 1000 - Number(ts)) > SLACK_TOLERANCE_S) return false;
  const want = Buffer.from(slackSignature(secret, ts, body));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

type SlackPayload = {
  type?: string;
  user?: { id?: string; username?: string; name?: string };
  actions?: { action_id?: string; block_id?: string; value?: string }[];
  response_url?: string;
  message?: { blocks?: { type: string; block_id?: string }[]; text?: string };
};

export async function handleSlackInteraction(
  channelId: number,
  rawBody: string,
  headers: Headers,
  now = Date.now(),
): Promise<{ status: number; body?: unknown }> {
  const channel = await read((u) => u.db.notificationChannel.findUnique({ where: { id: channelId } }));
  const secret = channel?.kind === "slack" ? channelSecrets(channel).signing_secret : undefined;
  if (!channel || !secret) return { status: 404, body: { error: "unknown channel" } };
  if (
    !verified(
      secret,
      headers.get("x-slack-request-timestamp"),
      headers.get("x-slack-signature"),
      rawBody,
      now,
    )
  ) {
    return { status: 401, body: { error: "bad signature" } };
  }
  let payload: SlackPayload;
  try {
    payload = JSON.parse(new URLSearchParams(rawBody).get("payload") ?? "") as SlackPayload;
  } catch {
    return { status: 400, body: { error: "no payload" } };
  }
  const action = payload.actions?.[0];
  const token = action?.value;
  // Link buttons ("Answer in Switchboard") also call back: nothing to do.
  if (!token) return { status: 200 };
  const p = verifyAction(token);
  if (!p || p.o !== channel.ownerId)
    return { status: 200, body: { response_type: "ephemeral", text: "This button is not valid." } };
  const outcome = await redeemAction(token, new Date(now));
  const who = payload.user?.username ?? payload.user?.name ?? payload.user?.id ?? "someone";
  const update =
    outcome.outcome === "done"
      ? {
          replace_original: true,
          text: `${who} answered "${outcome.label}" in Slack.`,
          blocks: [
            ...(payload.message?.blocks ?? []).filter(
              (b) => !(b.type === "actions" && b.block_id === action?.block_id),
            ),
            {
              type: "context",
              elements: [
                { type: "mrkdwn", text: `:white_check_mark: *${who}* answered *${outcome.label}* in Slack.` },
              ],
            },
          ],
        }
      : { replace_original: false, response_type: "ephemeral", text: `${outcome.message} ${outcome.link}` };
  const url = payload.response_url;
  if (url) {
    guardedPost(url, JSON.stringify(update), {}).catch((e) =>
      logger.warn({ err: e, channel: channelId }, "slack response_url update failed"),
    );
  }
  return { status: 200 };
}
