import { read, type Unit, write } from "@/lib/db";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { type ChannelRow, channelView, ownedChannel } from "./channels";
import { NOTIFY_TOPIC } from "./kinds";
import { loadItems } from "./render";
import { type SendOutcome, sendOver } from "./senders";
import { effectiveSettings } from "./settings";

/**
 * The durable outbox. Notifications are recorded with their event (capture.ts); the worker then
 *  1. routes each new one to the owner's channels (`route`): it joins the channel's open message for that
 *     goal if one is waiting (a digest), else opens a new one due at the end of the batching window, so a
 *     channel gets at most one message per goal per `batch_seconds`;
 *  2. claims due deliveries (`claimDue`, a hold that a crashed worker's expiry releases), sends each
 *     outside any unit of work, and records the attempt (`recordAttempt`): delivered, or retried later
 *     (SWITCHBOARD_NOTIFY_RETRY_S), or failed after the last retry — and a channel whose deliveries failed
 *     SWITCHBOARD_NOTIFY_DISABLE_AFTER times in a row is disabled, its owner told (a `channel_disabled`
 *     notification to their other channels, and the settings page).
 * Every step is a database row before anything leaves the process, so a crash loses nothing: at worst a
 * message whose send was cut off is sent again with the same `webhook-id` (receivers deduplicate on it).
 */

const msgId = () => newId("msg");
const retrySchedule = () =>
  env()
    .SWITCHBOARD_NOTIFY_RETRY_S.split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0);

/** Route up to `limit` unrouted notifications; returns how many. */
export async function route(now = new Date(), limit = 200): Promise<number> {
  const pending = await read((u) =>
    u.db.notification.findMany({ where: { routedAt: null }, orderBy: { id: "asc" }, take: limit }),
  );
  for (const n of pending) await write((u) => routeOne(u, n, now), "notifications");
  return pending.length;
}

async function routeOne(
  u: Unit,
  n: { id: number; ownerId: number; goalId: number | null; kind: string },
  now: Date,
): Promise<void> {
  const taken = await u.db.notification.updateMany({
    where: { id: n.id, routedAt: null },
    data: { routedAt: now },
  });
  if (!taken.count) return;
  const s = await effectiveSettings(u, n.ownerId, n.goalId);
  const system = n.kind === "channel_disabled";
  if (!system && (s.muted || (s.kinds && !s.kinds.includes(n.kind)))) return;
  const channels = await u.db.notificationChannel.findMany({ where: { ownerId: n.ownerId, enabled: true } });
  const goalId = n.goalId ?? 0;
  for (const c of channels) {
    if (!system && s.channels && !s.channels.includes(c.id)) continue;
    if (c.kindsJson && !(JSON.parse(c.kindsJson) as string[]).includes(n.kind)) continue;
    const open = await u.db.notificationDelivery.findFirst({
      where: { channelId: c.id, goalId, status: "pending", attempts: 0, lockedUntil: null, replayOf: null },
      orderBy: { id: "desc" },
    });
    if (open && open.notificationIdsJson !== "[]") {
      const ids = JSON.parse(open.notificationIdsJson) as number[];
      await u.db.notificationDelivery.update({
        where: { id: open.id },
        data: { notificationIdsJson: JSON.stringify([...ids, n.id]) },
        select: { id: true },
      });
      continue;
    }
    const last = await u.db.notificationDelivery.findFirst({
      where: { channelId: c.id, goalId, replayOf: null, NOT: { notificationIdsJson: "[]" } },
      orderBy: { scheduledAt: "desc" },
      select: { scheduledAt: true },
    });
    const windowEnd = last ? last.scheduledAt.getTime() + s.batchSeconds * 1000 : 0;
    const at = new Date(Math.max(now.getTime(), windowEnd));
    await u.db.notificationDelivery.create({
      data: {
        msgId: msgId(),
        channelId: c.id,
        ownerId: n.ownerId,
        goalId,
        notificationIdsJson: JSON.stringify([n.id]),
        scheduledAt: at,
        nextAttemptAt: at,
      },
      select: { id: true },
    });
  }
  u.notify(NOTIFY_TOPIC);
}

export type Claimed = {
  id: number;
  msgId: string;
  goalId: number;
  ids: number[];
  attempts: number;
  channel: ChannelRow;
};

// Longer than any one send can take (each call is bounded by the timeout; SMTP by three of them).
const holdMs = () => env().SWITCHBOARD_NOTIFY_TIMEOUT_MS * 3 + 5000;

/** Claim up to `limit` due deliveries of enabled channels, skipping the channels in `busy`. */
export async function claimDue(
  now = new Date(),
  busy: ReadonlySet<number> = new Set(),
  limit = 32,
): Promise<Claimed[]> {
  const due = await read((u) =>
    u.db.notificationDelivery.findMany({
      where: {
        status: "pending",
        nextAttemptAt: { lte: now },
        OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
      },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: limit * 4,
    }),
  );
  const out: Claimed[] = [];
  const seen = new Set(busy);
  for (const d of due) {
    if (out.length >= limit || seen.has(d.channelId)) continue;
    const got = await write(async (u) => {
      const channel = await u.db.notificationChannel.findUnique({ where: { id: d.channelId } });
      if (!channel?.enabled) return undefined;
      const held = await u.db.notificationDelivery.updateMany({
        where: { id: d.id, status: "pending", OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
        data: { lockedUntil: new Date(now.getTime() + holdMs()) },
      });
      return held.count ? channel : undefined;
    }, "notifications");
    if (!got) continue;
    seen.add(d.channelId); // one message at a time per channel: a slow endpoint holds only itself
    out.push({
      id: d.id,
      msgId: d.msgId,
      goalId: d.goalId,
      ids: JSON.parse(d.notificationIdsJson) as number[],
      attempts: d.attempts,
      channel: got,
    });
  }
  return out;
}

/** Send one claimed delivery and record the attempt. */
export async function sendClaimed(c: Claimed): Promise<SendOutcome> {
  const started = performance.now();
  const items = await loadItems(c.ids);
  const outcome = await sendOver(c.channel, {
    msgId: c.msgId,
    goalId: c.goalId,
    test: c.ids.length === 0,
    items,
  });
  await recordAttempt(c, outcome, Math.round(performance.now() - started));
  return outcome;
}

async function recordAttempt(
  c: Claimed,
  o: SendOutcome,
  durationMs: number,
  now = new Date(),
): Promise<void> {
  await write(async (u) => {
    await u.db.notificationAttempt.create({
      data: { deliveryId: c.id, at: now, ok: o.ok, httpStatus: o.httpStatus, error: o.error, durationMs },
      select: { id: true },
    });
    const attempts = c.attempts + 1;
    if (o.ok) {
      await u.db.notificationDelivery.update({
        where: { id: c.id },
        data: { status: "delivered", attempts, deliveredAt: now, lockedUntil: null, lastError: null },
        select: { id: true },
      });
      if (c.ids.length) {
        await u.db.notificationChannel.update({
          where: { id: c.channel.id },
          data: { failedInARow: 0 },
          select: { id: true },
        });
      }
      return;
    }
    const schedule = retrySchedule();
    const test = c.ids.length === 0;
    if (!test && attempts <= schedule.length) {
      const delay = (schedule[attempts - 1] ?? 0) * 1000;
      await u.db.notificationDelivery.update({
        where: { id: c.id },
        data: {
          attempts,
          nextAttemptAt: new Date(now.getTime() + delay),
          lockedUntil: null,
          lastError: o.error,
        },
        select: { id: true },
      });
      u.notify(NOTIFY_TOPIC);
      return;
    }
    await u.db.notificationDelivery.update({
      where: { id: c.id },
      data: { status: "failed", attempts, lockedUntil: null, lastError: o.error },
      select: { id: true },
    });
    if (test) return;
    const ch = await u.db.notificationChannel.update({
      where: { id: c.channel.id },
      data: { failedInARow: { increment: 1 } },
      select: { failedInARow: true, enabled: true, ownerId: true, name: true, kind: true },
    });
    if (ch.enabled && ch.failedInARow >= env().SWITCHBOARD_NOTIFY_DISABLE_AFTER) {
      const reason = `${ch.failedInARow} deliveries in a row failed after every retry; last error: ${o.error ?? "unknown"}`;
      await u.db.notificationChannel.update({
        where: { id: c.channel.id },
        data: { enabled: false, disabledAt: now, disabledReason: reason.slice(0, 500) },
        select: { id: true },
      });
      await u.db.notification.create({
        data: {
          ownerId: ch.ownerId,
          goalId: null,
          kind: "channel_disabled",
          summary: `Your ${ch.kind} channel "${ch.name}" was disabled: ${reason}`.slice(0, 500),
          link: "/settings/notifications",
          dataJson: JSON.stringify({ channel_id: c.channel.id }),
        },
        select: { id: true },
      });
      u.notify(NOTIFY_TOPIC);
    }
  }, "notifications");
}

/** Queue a test message to a channel now and send it at once; answers the attempt's outcome. */
export async function sendTest(ownerId: number, channelId: number) {
  const now = new Date();
  const row = await write(async (u) => {
    const c = await ownedChannel(u, ownerId, channelId);
    const d = await u.db.notificationDelivery.create({
      data: {
        msgId: msgId(),
        channelId,
        ownerId,
        goalId: 0,
        notificationIdsJson: "[]",
        scheduledAt: now,
        nextAttemptAt: now,
        lockedUntil: new Date(now.getTime() + holdMs()),
      },
    });
    return { d, c };
  });
  const outcome = await sendClaimed({
    id: row.d.id,
    msgId: row.d.msgId,
    goalId: 0,
    ids: [],
    attempts: 0,
    channel: row.c,
  });
  return { delivery_id: row.d.id, ok: outcome.ok, http_status: outcome.httpStatus, error: outcome.error };
}

/** Replay a delivery: the same message (same webhook-id) queued again now, whatever its outcome was. */
export async function replayDelivery(ownerId: number, id: number) {
  const now = new Date();
  const d = await write(async (u) => {
    const d = await u.db.notificationDelivery.findUnique({ where: { id } });
    if (!d || d.ownerId !== ownerId) throw notFound(`delivery ${id}`);
    const copy = await u.db.notificationDelivery.create({
      data: {
        msgId: d.msgId,
        channelId: d.channelId,
        ownerId,
        goalId: d.goalId,
        notificationIdsJson: d.notificationIdsJson,
        scheduledAt: now,
        nextAttemptAt: now,
        replayOf: d.id,
      },
    });
    u.notify(NOTIFY_TOPIC);
    return copy;
  });
  return { delivery_id: d.id, replay_of: id, status: d.status };
}

export type DeliveryView = {
  id: number;
  msg_id: string;
  channel: { id: number; name: string; kind: string } | null;
  goal_id: number | null;
  test: boolean;
  notifications: { id: number; kind: string; summary: string }[];
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
  last_error: string | null;
  replay_of: number | null;
  log: { at: string; ok: boolean; http_status: number | null; error: string | null; duration_ms: number }[];
};

/** The delivery log: newest first, each with its attempts. */
export async function listDeliveries(
  ownerId: number,
  opts: { channelId?: number; limit?: number } = {},
): Promise<DeliveryView[]> {
  return read(async (u) => {
    const rows = await u.db.notificationDelivery.findMany({
      where: { ownerId, ...(opts.channelId ? { channelId: opts.channelId } : {}) },
      orderBy: { id: "desc" },
      take: Math.min(opts.limit ?? 50, 200),
    });
    const ids = rows.map((r) => r.id);
    const attempts = await u.db.notificationAttempt.findMany({
      where: { deliveryId: { in: ids } },
      orderBy: { id: "asc" },
    });
    const channels = new Map(
      (
        await u.db.notificationChannel.findMany({
          where: { id: { in: [...new Set(rows.map((r) => r.channelId))] } },
        })
      ).map((c) => [c.id, channelView(c)]),
    );
    const nids = [...new Set(rows.flatMap((r) => JSON.parse(r.notificationIdsJson) as number[]))];
    const notes = new Map(
      (
        await u.db.notification.findMany({
          where: { id: { in: nids } },
          select: { id: true, kind: true, summary: true },
        })
      ).map((n) => [n.id, n]),
    );
    return rows.map((r) => {
      const c = channels.get(r.channelId);
      const nl = JSON.parse(r.notificationIdsJson) as number[];
      return {
        id: r.id,
        msg_id: r.msgId,
        channel: c ? { id: c.id, name: c.name, kind: c.kind } : null,
        goal_id: r.goalId || null,
        test: nl.length === 0,
        notifications: nl.flatMap((id) => {
          const n = notes.get(id);
          return n ? [n] : [];
        }),
        status: r.status,
        attempts: r.attempts,
        next_attempt_at: r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
        created_at: r.createdAt.toISOString(),
        delivered_at: r.deliveredAt?.toISOString() ?? null,
        last_error: r.lastError,
        replay_of: r.replayOf,
        log: attempts
          .filter((a) => a.deliveryId === r.id)
          .map((a) => ({
            at: a.at.toISOString(),
            ok: a.ok,
            http_status: a.httpStatus,
            error: a.error,
            duration_ms: a.durationMs,
          })),
      };
    });
  });
}

/** The owner's recent notifications (what was produced, whether or not a channel took it). */
export async function listNotifications(ownerId: number, limit = 50) {
  const rows = await read((u) =>
    u.db.notification.findMany({ where: { ownerId }, orderBy: { id: "desc" }, take: Math.min(limit, 200) }),
  );
  return rows.map((n) => ({
    id: n.id,
    kind: n.kind,
    goal_id: n.goalId,
    summary: n.summary,
    link: n.link,
    created_at: n.createdAt.toISOString(),
    routed: n.routedAt !== null,
  }));
}
