import net from "node:net";
import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { env } from "@/lib/env";
import { type ChannelRow, channelConfig, channelSecrets } from "./channels";
import type { NotificationItem } from "./kinds";
import { emailMessage, slackMessage, webhookPayload } from "./render";
import { guardedPost, smtpAddress } from "./ssrf";

/**
 * One attempt to send one delivery over its channel. Resolves with the outcome (never throws): `ok` is
 * a 2xx within the timeout (webhook, Slack) or a mail the SMTP server accepted.
 */
export type SendOutcome = { ok: boolean; httpStatus: number | null; error: string | null };

export type Outgoing = { msgId: string; goalId: number; test: boolean; items: NotificationItem[] };

const failed = (e: unknown): SendOutcome => ({
  ok: false,
  httpStatus: null,
  error: (e instanceof Error ? e.message : String(e)).slice(0, 500),
});

const httpOutcome = (r: { status: number; body: string }): SendOutcome => ({
  ok: r.status >= 200 && r.status < 300,
  httpStatus: r.status,
  error:
    r.status >= 200 && r.status < 300 ? null : `HTTP ${r.status}${r.body ? `: ${r.body.slice(0, 200)}` : ""}`,
});

async function sendWebhook(c: ChannelRow, out: Outgoing): Promise<SendOutcome> {
  const url = channelConfig(c).url;
  const secret = channelSecrets(c).signing_secret;
  if (!url || !secret) return failed("channel has no URL or signing secret");
  const at = new Date();
  const body = JSON.stringify(webhookPayload(out, out.items, at));
  const signature = new Webhook(secret).sign(out.msgId, at, body);
  const r = await guardedPost(url, body, {
    "webhook-id": out.msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
    "user-agent": "Switchboard-Webhooks/1",
  });
  return httpOutcome(r);
}

async function sendSlack(c: ChannelRow, out: Outgoing): Promise<SendOutcome> {
  const s = channelSecrets(c);
  if (!s.webhook_url) return failed("channel has no Slack webhook URL");
  const msg = slackMessage(out.items, { interactive: Boolean(s.signing_secret), test: out.test });
  return httpOutcome(await guardedPost(s.webhook_url, JSON.stringify(msg), {}));
}

async function sendEmail(c: ChannelRow, out: Outgoing): Promise<SendOutcome> {
  const cfg = channelConfig(c);
  const { password } = channelSecrets(c);
  if (!cfg.host) return failed("channel has no SMTP host");
  const timeout = env().SWITCHBOARD_NOTIFY_TIMEOUT_MS;
  // The checked address, with the name kept for TLS (ssrf.ts).
  const address = await smtpAddress(cfg.host);
  const transport = nodemailer.createTransport({
    host: address,
    tls: net.isIP(cfg.host) ? undefined : { servername: cfg.host },
    port: cfg.port,
    secure: cfg.secure ?? false,
    auth: cfg.user ? { user: cfg.user, pass: password ?? "" } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  try {
    const m = emailMessage(out.items, out.test);
    await transport.sendMail({
      from: cfg.from,
      to: cfg.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      messageId: `<${out.msgId}@switchboard>`,
    });
    return { ok: true, httpStatus: null, error: null };
  } finally {
    transport.close();
  }
}

export async function sendOver(c: ChannelRow, out: Outgoing): Promise<SendOutcome> {
  try {
    if (c.kind === "webhook") return await sendWebhook(c, out);
    if (c.kind === "slack") return await sendSlack(c, out);
    if (c.kind === "email") return await sendEmail(c, out);
    return failed(`unknown channel kind ${c.kind}`);
  } catch (e) {
    return failed(e);
  }
}
