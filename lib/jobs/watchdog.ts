import { read, type Unit, withUnitName, write } from "@/lib/db";
import { acquireLease } from "@/lib/domain/teams/lease";
import { uuid } from "@/lib/ids";
import { logger } from "@/lib/log";
import { jobsConfig } from "./config";
import { idleStep, reviewStep, terminateGraceStep, terminationRequestStep } from "./watchdog-steps";

/**
 * The watchdog: a background loop in every server process, of which exactly one per deployment does
 * the work: each tick it takes (or renews) the database lease `watchdog`; a process that crashes loses
 * it when the lease expires (3 ticks) and another takes over. Each action is a conditional update of
 * the agent's ladder step, so even two overlapping passes never ping twice.
 *
 * Ladders (timings from jobsConfig, the orchestrator's defaults 60 s / 120 s / 60 s):
 *   review pending → ping #1 to the leader after REVIEW_PING_S, ping #2 after as long again, then the owner;
 *   termination requested → the same ladder;
 *   idle leaf agent (no tool call for IDLE_NUDGE_S) → nudge #1, #2 every REVIEW_PING_S, then the owner;
 *   terminate sentinel unread after TERMINATE_GRACE_S → ended (`terminate.forced`, reason `watchdog_grace`).
 */
const g = globalThis as unknown as { __switchboardWatchdog?: { stop(): void; instance: string } };

export type Candidate = {
  id: number;
  goalId: number;
  leaderId: number | null;
  name: string;
  teamId: string | null;
  createdAt: Date | string;
  lastToolCallAt: Date | string | null;
  reviewPending: boolean | number;
  reviewPendingAt: Date | string | null;
  reviewStage: number;
  reviewStageAt: Date | string | null;
  terminationRequested: boolean | number;
  terminationRequestedAt: Date | string | null;
  termReqStage: number;
  termReqStageAt: Date | string | null;
  idleStage: number;
  idleStageAt: Date | string | null;
  terminatePostedAt: Date | string | null;
  leaf: number | boolean;
};

/** One pass over every live agent. Returns the number of actions taken. */
export async function watchdogPass(now = new Date()): Promise<number> {
  const agents = await read(({ sql }) =>
    sql.all<Candidate>(
      `SELECT a.id, a."goalId", a."leaderId", a.name, a."teamId", a."createdAt", a."lastToolCallAt",
              a."reviewPending", a."reviewPendingAt", a."reviewStage", a."reviewStageAt",
              a."terminationRequested", a."terminationRequestedAt", a."termReqStage", a."termReqStageAt",
              a."idleStage", a."idleStageAt", a."terminatePostedAt",
              CASE WHEN EXISTS (SELECT 1 FROM "Agent" c WHERE c."leaderId" = a.id)
                     OR EXISTS (SELECT 1 FROM "Team" t WHERE t."leaderId" = a.id) THEN 0 ELSE 1 END AS leaf
       FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId"
       WHERE a.status <> 'terminated' AND a."terminateConsumed" = ? AND g.status NOT IN ('completed', 'cancelled')`,
      false,
    ),
  );
  const cfg = jobsConfig();
  let actions = 0;
  for (const a of agents) {
    const steps: ((u: Unit) => Promise<boolean>)[] = [];
    const grace = terminateGraceStep(a, now, cfg);
    if (grace) steps.push(grace);
    else if (!a.terminatePostedAt) {
      for (const s of [reviewStep(a, now, cfg), terminationRequestStep(a, now, cfg), idleStep(a, now, cfg)]) {
        if (s) steps.push(s);
      }
    }
    for (const step of steps) {
      try {
        if (await write(step)) actions++;
      } catch (e) {
        logger.error({ err: e, agent: a.id }, "watchdog step failed");
      }
    }
  }
  return actions;
}

/** Start the watchdog loop in this process (idempotent; `SWITCHBOARD_WATCHDOG=0` disables it). */
export function startWatchdog(): void {
  const cfg = jobsConfig();
  if (g.__switchboardWatchdog || cfg.SWITCHBOARD_WATCHDOG === "0") return;
  const instance = uuid();
  const tickMs = cfg.SWITCHBOARD_WATCHDOG_TICK_S * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      if (await acquireLease("watchdog", instance, Math.max(3 * tickMs, 3000)))
        await withUnitName("watchdog", watchdogPass);
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
