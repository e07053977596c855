import { env } from "@/lib/env";

/** The watchdog's thresholds, in seconds (README, configuration; the orchestrator's defaults 60 / 120 / 60). */
export type WatchdogTimings = {
  /** A pending review or termination request: ping #1 after this, ping #2 as long again later, then the owner. */
  reviewPingS: number;
  /** A leaf agent without a tool call this long: nudge #1 (then #2 and the owner, every `reviewPingS`). */
  idleNudgeS: number;
  /** A terminate sentinel unread this long after it was posted: the agent is ended. */
  terminateGraceS: number;
  /** A question held by an agent with no activity: ping #1 after this, ping #2 as long again later, then one hop up. */
  questionPingS: number;
};

export function watchdogTimings(): WatchdogTimings {
  const e = env();
  return {
    reviewPingS: e.SWITCHBOARD_REVIEW_PING_S,
    idleNudgeS: e.SWITCHBOARD_IDLE_NUDGE_S,
    terminateGraceS: e.SWITCHBOARD_TERMINATE_GRACE_S,
    questionPingS: e.SWITCHBOARD_QUESTION_PING_S,
  };
}
