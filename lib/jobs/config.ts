import { z } from "zod";

/**
 * Timings of the watchdog and of the tool-call bookkeeping, in seconds (README, configuration).
 * Defaults are the orchestrator's; tests shorten them.
 */
const schema = z.object({
  /** Seconds between watchdog passes. */
  SWITCHBOARD_WATCHDOG_TICK_S: z.coerce.number().positive().default(30),
  /** A pending review (or termination request) unanswered this long gets ping #1; as long again, ping #2; again, the owner. */
  SWITCHBOARD_REVIEW_PING_S: z.coerce.number().positive().default(60),
  /** A leaf agent without a tool call for this long gets nudge #1 (then the same ladder, every REVIEW_PING_S). */
  SWITCHBOARD_IDLE_NUDGE_S: z.coerce.number().positive().default(120),
  /** An agent that has not read its terminate sentinel this long after it was posted is ended. */
  SWITCHBOARD_TERMINATE_GRACE_S: z.coerce.number().positive().default(60),
  /** `0` turns the watchdog off in this process. */
  SWITCHBOARD_WATCHDOG: z.enum(["0", "1"]).default("1"),
  /** Agent.lastToolCallAt is rewritten only when older than this (keeps /mcp to one cheap read per call). */
  SWITCHBOARD_TOOL_CALL_TOUCH_S: z.coerce.number().min(0).default(5),
  /** Test aid: extra milliseconds spawn_agent / create_team hold their per-agent lock (0 in production). */
  SWITCHBOARD_SPAWN_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(0),
});

export type JobsConfig = z.infer<typeof schema>;
let cached: JobsConfig | undefined;

export function jobsConfig(): JobsConfig {
  cached ??= schema.parse(process.env);
  return cached;
}
