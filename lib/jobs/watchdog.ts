import { read, write } from "@/lib/db";
import { acquireLease } from "@/lib/domain/teams/lease";
import { watchdogCandidates } from "@/lib/domain/watchdog/candidates";
import {
  idleStep,
  reviewStep,
  type Step,
  terminateGraceStep,
  terminationRequestStep,
} from "@/lib/domain/watchdog/ladders";
import { heldQuestions, questionStep } from "@/lib/domain/watchdog/question-ladder";
import { type WatchdogTimings, watchdogTimings } from "@/lib/domain/watchdog/timings";
import { env } from "@/lib/env";
import { uuid } from "@/lib/ids";
import { logger } from "@/lib/log";

/**
 * The watchdog's scheduler (its rules are lib/domain/watchdog): a background loop in every server
 * process, of which exactly one per deployment does the work: each tick it takes (or renews) the
 * database lease `watchdog`; a process that crashes loses it when the lease expires (3 ticks) and another
 * takes over. Each tick is one pass at the wall clock's time.
 */
const g = globalThis as unknown as { __switchboardWatchdog?: { stop(): void; instance: string } };

/** One pass over every watched agent, then every question held by an agent, at time `now`. Returns the number of steps taken. */
export async function watchdogPass(now = new Date(), timings: WatchdogTimings = watchdogTimings()) {
  const agents = await read(watchdogCandidates, "watchdog");
  let actions = 0;
  for (const a of agents) {
    // An agent being ended is only ended; the other ladders wait on agents that still work.
    const grace = terminateGraceStep(a, now, timings);
    const steps: (Step | undefined)[] = grace
      ? [grace]
      : a.terminatePostedAt
        ? []
        : [reviewStep(a, now, timings), terminationRequestStep(a, now, timings), idleStep(a, now, timings)];
    for (const step of steps) {
      if (!step) continue;
      try {
        if (await write(step, "watchdog")) actions++;
      } catch (e) {
        logger.error({ err: e, agent: a.id }, "watchdog step failed");
      }
    }
  }
  // Questions held by an agent that nobody answers climb on their own (question-ladder.ts).
  for (const q of await read(heldQuestions, "watchdog")) {
    const step = questionStep(q, now, timings);
    if (!step) continue;
    try {
      if (await write(step, "watchdog")) actions++;
    } catch (e) {
      logger.error({ err: e, qid: q.id }, "watchdog question step failed");
    }
  }
  return actions;
}

/** How long the lease lasts: three ticks (at least 3 s), so one slow tick does not hand it over. */
const leaseMs = () => Math.max(3 * env().SWITCHBOARD_WATCHDOG_TICK_S * 1000, 3000);

/**
 * One tick of instance `instance` at time `now`: a pass if it holds (or takes) the lease; undefined when
 * another instance holds it.
 */
export async function watchdogTick(instance: string, now = new Date()): Promise<number | undefined> {
  if (!(await acquireLease("watchdog", instance, leaseMs(), now))) return undefined;
  return watchdogPass(now);
}

/** Start the watchdog loop in this process (idempotent; `SWITCHBOARD_WATCHDOG=0` disables it). */
export function startWatchdog(): void {
  const cfg = env();
  if (g.__switchboardWatchdog || cfg.SWITCHBOARD_WATCHDOG === "0") return;
  const instance = uuid();
  const tickMs = cfg.SWITCHBOARD_WATCHDOG_TICK_S * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      await watchdogTick(instance);
    } catch (e) {
      logger.error({ err: e }, "watchdog tick failed");
    }
    if (!stopped) timer = setTimeout(tick, tickMs);
    timer?.unref?.();
  };
  timer = setTimeout(tick, Math.min(tickMs, 1000));
  timer.unref?.();
  g.__switchboardWatchdog = {
    instance,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
