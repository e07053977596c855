import { subscribe } from "@/lib/bus";
import { NOTIFY_TOPIC } from "@/lib/domain/notifications/kinds";
import { claimDue, route, sendClaimed } from "@/lib/domain/notifications/outbox";
import { acquireLease } from "@/lib/domain/teams/lease";
import { env } from "@/lib/env";
import { uuid } from "@/lib/ids";
import { logger } from "@/lib/log";

/**
 * The notification worker (issue 17, docs/notifications.md): its own loop, so a slow endpoint never
 * delays the hub's requests, and its sends run concurrently with one message in flight per channel, so it
 * never delays another channel (or another owner). With several instances one holds the `notifications`
 * lease and works; the rest wait. Woken by the bus when a notification is recorded, else every
 * SWITCHBOARD_NOTIFY_TICK_MS. The outbox is in the database: a restart resumes where a crash stopped.
 */
type Worker = { instance: string; stop(): void; inFlight: Map<number, Promise<unknown>> };
const g = globalThis as unknown as { __switchboardNotifier?: Worker };

const MAX_IN_FLIGHT = 16;

/**
 * One pass: route new notifications, start sending what is due. `inFlight` holds the sends still running
 * (per channel); `await` them to wait for the pass's sends (tests).
 */
export async function notificationPass(
  inFlight: Map<number, Promise<unknown>>,
  now = new Date(),
): Promise<void> {
  await route(now);
  if (inFlight.size >= MAX_IN_FLIGHT) return;
  const claimed = await claimDue(now, new Set(inFlight.keys()), MAX_IN_FLIGHT - inFlight.size);
  for (const c of claimed) {
    const p = sendClaimed(c)
      .catch((e) => logger.error({ err: e, delivery: c.id }, "notification send failed"))
      .finally(() => inFlight.delete(c.channel.id));
    inFlight.set(c.channel.id, p);
  }
}

/** Run passes until nothing is due and nothing is in flight (tests; `now` fixed). */
export async function drainNotifications(now?: () => Date): Promise<void> {
  const inFlight = new Map<number, Promise<unknown>>();
  for (let i = 0; i < 100; i++) {
    await notificationPass(inFlight, now?.());
    if (!inFlight.size) return;
    await Promise.all(inFlight.values());
  }
}

const leaseMs = () => Math.max(3 * env().SWITCHBOARD_NOTIFY_TICK_MS, 5000);

/** Start the worker in this process (idempotent; `SWITCHBOARD_NOTIFY=0` disables it). */
export function startNotifications(): void {
  const cfg = env();
  if (g.__switchboardNotifier || cfg.SWITCHBOARD_NOTIFY === "0") return;
  const instance = uuid();
  const inFlight = new Map<number, Promise<unknown>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let running = false;
  let again = false;
  let renewAt = 0;
  const tick = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(timer);
    try {
      // The lease is renewed once a third of it has passed, not on every pass (one write less per tick).
      const now = Date.now();
      if (now >= renewAt) {
        renewAt = (await acquireLease("notifications", instance, leaseMs())) ? now + leaseMs() / 3 : 0;
      }
      if (renewAt) await notificationPass(inFlight);
    } catch (e) {
      logger.error({ err: e }, "notification pass failed");
    }
    running = false;
    if (stopped) return;
    const delay = again ? 0 : cfg.SWITCHBOARD_NOTIFY_TICK_MS;
    again = false;
    timer = setTimeout(tick, delay);
    timer.unref?.();
  };
  const unsubscribe = subscribe(NOTIFY_TOPIC, () => {
    if (!stopped) void tick();
  });
  timer = setTimeout(tick, Math.min(cfg.SWITCHBOARD_NOTIFY_TICK_MS, 500));
  timer.unref?.();
  g.__switchboardNotifier = {
    instance,
    inFlight,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}

export function stopNotifications(): void {
  g.__switchboardNotifier?.stop();
  g.__switchboardNotifier = undefined;
}
