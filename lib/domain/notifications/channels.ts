import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type ReadUnit, read, type Unit, write } from "@/lib/db";
import { decryptValue, encryptValue } from "@/lib/domain/secrets/crypto";
import { notFound } from "@/lib/errors";
import { CHANNEL_KINDS, type ChannelKind, NOTIFICATION_KINDS } from "./kinds";
import { appOrigin } from "./links";
import { checkSmtpHost, checkUrl } from "./ssrf";

/**
 * Notification channels of an owner (webhook, Slack, email): `/api/notification-channels` and the
 * settings page. Secrets (the webhook signing secret, the Slack webhook URL and signing secret, the SMTP
 * password) are one JSON value encrypted like agent secrets, bound to the channel's id, and never shown
 * again — except a webhook's generated signing secret, shown once in the create answer.
 */

const kinds = z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length).nullable();
const name = z.string().trim().min(1).max(100);
const email = z.string().trim().min(3).max(320);
const common = { name, kinds: kinds.optional(), enabled: z.boolean().optional() };

export const createChannelInput = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("webhook"), url: z.string().max(2000), ...common }),
  z.strictObject({
    kind: z.literal("slack"),
    webhook_url: z.string().max(2000),
    /** The Slack app's signing secret: turns on buttons (interactive callbacks). */
    signing_secret: z.string().min(8).max(200).optional(),
    ...common,
  }),
  z.strictObject({
    kind: z.literal("email"),
    host: z.string().trim().min(1).max(255),
    port: z.coerce.number().int().min(1).max(65_535).default(587),
    secure: z.boolean().default(false),
    user: z.string().max(320).optional(),
    password: z.string().max(1000).optional(),
    from: email,
    to: email,
    ...common,
  }),
]);
export type CreateChannelInput = z.input<typeof createChannelInput>;

export const updateChannelInput = z.strictObject({
  name: name.optional(),
  kinds: kinds.optional(),
  enabled: z.boolean().optional(),
  url: z.string().max(2000).optional(),
  webhook_url: z.string().max(2000).optional(),
  signing_secret: z.string().min(8).max(200).nullable().optional(),
  host: z.string().trim().min(1).max(255).optional(),
  port: z.coerce.number().int().min(1).max(65_535).optional(),
  secure: z.boolean().optional(),
  user: z.string().max(320).optional(),
  password: z.string().max(1000).optional(),
  from: email.optional(),
  to: email.optional(),
});

export type ChannelSecrets = { signing_secret?: string; webhook_url?: string; password?: string };
export type ChannelConfig = {
  url?: string;
  host?: string;
  port?: number;
  secure?: boolean;
  user?: string;
  from?: string;
  to?: string;
  interactive?: boolean;
};

export type ChannelRow = {
  id: number;
  ownerId: number;
  kind: string;
  name: string;
  configJson: string;
  secretEnc: string | null;
  kindsJson: string | null;
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failedInARow: number;
  createdAt: Date;
};

export type ChannelView = {
  id: number;
  kind: ChannelKind;
  name: string;
  kinds: string[] | null;
  enabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
  config: ChannelConfig;
  /** Slack with a signing secret: the Request URL to paste into the Slack app's Interactivity settings. */
  slack_interactive_url: string | null;
  created_at: string;
};

const identity = (c: { id: number; ownerId: number; kind: string }) => ({
  ownerId: c.ownerId,
  scopeType: "notification_channel",
  scopeId: c.id,
  name: c.kind,
  version: 1,
});

export function channelSecrets(c: ChannelRow): ChannelSecrets {
  if (!c.secretEnc) return {};
  return JSON.parse(String(decryptValue(identity(c), c.secretEnc))) as ChannelSecrets;
}

export const channelConfig = (c: { configJson: string }) => JSON.parse(c.configJson) as ChannelConfig;

export function channelView(c: ChannelRow): ChannelView {
  const config = channelConfig(c);
  return {
    id: c.id,
    kind: c.kind as ChannelKind,
    name: c.name,
    kinds: c.kindsJson ? (JSON.parse(c.kindsJson) as string[]) : null,
    enabled: c.enabled,
    disabled_at: c.disabledAt?.toISOString() ?? null,
    disabled_reason: c.disabledReason,
    config,
    slack_interactive_url:
      c.kind === "slack" && config.interactive
        ? `${appOrigin()}/api/notifications/slack/${c.id}/interactive`
        : null,
    created_at: c.createdAt.toISOString(),
  };
}

const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export async function listChannels(ownerId: number): Promise<ChannelView[]> {
  const rows = await read((u) =>
    u.db.notificationChannel.findMany({ where: { ownerId }, orderBy: { id: "asc" } }),
  );
  return rows.map(channelView);
}

export async function ownedChannel(u: ReadUnit, ownerId: number, id: number): Promise<ChannelRow> {
  const c = await u.db.notificationChannel.findUnique({ where: { id } });
  if (!c || c.ownerId !== ownerId) throw notFound(`notification channel ${id}`);
  return c;
}

export async function getChannel(ownerId: number, id: number): Promise<ChannelView> {
  return channelView(await read((u) => ownedChannel(u, ownerId, id)));
}

function split(input: z.output<typeof createChannelInput>): {
  config: ChannelConfig;
  secrets: ChannelSecrets;
} {
  switch (input.kind) {
    case "webhook":
      return {
        config: { url: checkUrl(input.url).toString() },
        secrets: { signing_secret: newSigningSecret() },
      };
    case "slack":
      checkUrl(input.webhook_url, "webhook_url");
      return {
        config: { interactive: Boolean(input.signing_secret) },
        secrets: { webhook_url: input.webhook_url, signing_secret: input.signing_secret },
      };
    case "email":
      return {
        config: {
          host: checkSmtpHost(input.host),
          port: input.port,
          secure: input.secure,
          user: input.user,
          from: input.from,
          to: input.to,
        },
        secrets: { password: input.password },
      };
  }
}

/** Create a channel; a webhook's answer carries its signing secret, this once. */
export async function createChannel(ownerId: number, raw: unknown) {
  const input = createChannelInput.parse(raw);
  const { config, secrets } = split(input);
  const row = await write(async (u) => {
    const c = await u.db.notificationChannel.create({
      data: {
        ownerId,
        kind: input.kind,
        name: input.name,
        configJson: JSON.stringify(config),
        kindsJson: input.kinds ? JSON.stringify(input.kinds) : null,
        enabled: input.enabled ?? true,
      },
    });
    return u.db.notificationChannel.update({
      where: { id: c.id },
      data: { secretEnc: encryptValue(identity(c), JSON.stringify(secrets)) },
    });
  });
  return {
    ...channelView(row),
    ...(input.kind === "webhook" ? { signing_secret: secrets.signing_secret } : {}),
  };
}

export async function updateChannel(ownerId: number, id: number, raw: unknown): Promise<ChannelView> {
  const input = updateChannelInput.parse(raw);
  const row = await write(async (u) => {
    const c = await ownedChannel(u, ownerId, id);
    const config = channelConfig(c);
    const secrets = channelSecrets(c);
    if (c.kind === "webhook" && input.url !== undefined) config.url = checkUrl(input.url).toString();
    if (c.kind === "slack") {
      if (input.webhook_url !== undefined)
        secrets.webhook_url = checkUrl(input.webhook_url, "webhook_url").toString();
      if (input.signing_secret !== undefined) {
        secrets.signing_secret = input.signing_secret ?? undefined;
        config.interactive = Boolean(input.signing_secret);
      }
    }
    if (c.kind === "email") {
      if (input.host !== undefined) checkSmtpHost(input.host);
      for (const k of ["host", "port", "secure", "user", "from", "to"] as const) {
        if (input[k] !== undefined) (config as Record<string, unknown>)[k] = input[k];
      }
      if (input.password !== undefined) secrets.password = input.password;
    }
    const reenable = input.enabled === true && !c.enabled;
    return u.db.notificationChannel.update({
      where: { id },
      data: {
        name: input.name,
        kindsJson: input.kinds === undefined ? undefined : input.kinds ? JSON.stringify(input.kinds) : null,
        enabled: input.enabled,
        ...(reenable ? { disabledAt: null, disabledReason: null, failedInARow: 0 } : {}),
        ...(input.enabled === false && c.enabled
          ? { disabledAt: new Date(), disabledReason: "by the owner" }
          : {}),
        configJson: JSON.stringify(config),
        secretEnc: encryptValue(identity(c), JSON.stringify(secrets)),
      },
    });
  });
  return channelView(row);
}

/** Rotate a webhook's signing secret; the new one is answered this once. */
export async function rotateSigningSecret(ownerId: number, id: number) {
  const signing = newSigningSecret();
  await write(async (u) => {
    const c = await ownedChannel(u, ownerId, id);
    if (c.kind !== "webhook") throw notFound(`webhook channel ${id}`);
    const secrets = { ...channelSecrets(c), signing_secret: signing };
    await u.db.notificationChannel.update({
      where: { id },
      data: { secretEnc: encryptValue(identity(c), JSON.stringify(secrets)) },
      select: { id: true },
    });
  });
  return { id, signing_secret: signing };
}

export async function deleteChannel(ownerId: number, id: number) {
  await write(async (u) => {
    await ownedChannel(u, ownerId, id);
    const deliveries = await u.db.notificationDelivery.findMany({
      where: { channelId: id },
      select: { id: true },
    });
    await u.db.notificationAttempt.deleteMany({ where: { deliveryId: { in: deliveries.map((d) => d.id) } } });
    await u.db.notificationDelivery.deleteMany({ where: { channelId: id } });
    await u.db.notificationChannel.delete({ where: { id }, select: { id: true } });
  });
  return { ok: true as const, id };
}

export const isChannelKind = (k: string): k is ChannelKind =>
  (CHANNEL_KINDS as readonly string[]).includes(k);

/** Key rotation (secrets/rotate-key.ts): re-encrypt every channel's secrets with `next`, inside its unit. */
export async function reencryptChannelSecrets(u: Unit, current: Buffer, next: Buffer): Promise<number> {
  const rows = await u.db.notificationChannel.findMany({ where: { secretEnc: { not: null } } });
  for (const c of rows) {
    const value = decryptValue(identity(c), c.secretEnc ?? "", current);
    await u.db.notificationChannel.update({
      where: { id: c.id },
      data: { secretEnc: encryptValue(identity(c), value, next) },
      select: { id: true },
    });
  }
  return rows.length;
}
