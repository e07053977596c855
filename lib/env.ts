import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable Switchboard reads, validated once; nothing else in lib/ or app/ reads
 * `process.env`. The README's configuration reference mirrors this list.
 */
const schema = z.object({
  DATABASE_URL: z.string().default("file:./data/switchboard.db"),
  SWITCHBOARD_DATA_DIR: z.string().default("./data"),
  /** HTTP port of this server (the Origin policy allows localhost on it). */
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Public origin of the app (e.g. https://switchboard.example.com); next-auth's NEXTAUTH_URL also works. */
  SWITCHBOARD_URL: z.string().optional(),
  NEXTAUTH_URL: z.string().optional(),
  /** Extra origins allowed to call /mcp and the REST API from a browser, comma-separated. */
  SWITCHBOARD_ALLOWED_ORIGINS: z.string().default(""),
  SWITCHBOARD_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SWITCHBOARD_INBOX_CAP: z.coerce.number().int().positive().default(1000),
  /** SQLite durability: FULL (default) keeps acknowledged writes through a power loss; NORMAL is faster. */
  SWITCHBOARD_SQLITE_SYNCHRONOUS: z.enum(["FULL", "NORMAL"]).default("FULL"),
  // issue 16: limits per agent and per key (docs/decisions.md "Limits").
  /** Unread bytes one inbox may hold (message contents); past it, send_message answers inbox_full. */
  SWITCHBOARD_INBOX_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** MCP calls per second per credential (bursts up to twice that); beyond it, 429 rate_limited. */
  SWITCHBOARD_CALLS_PER_S: z.coerce.number().positive().default(200),
  /** JSON-RPC messages one /mcp request may batch. */
  SWITCHBOARD_MAX_BATCH: z.coerce.number().int().positive().default(20),
  /** Blocking calls (read_inbox with wait_seconds, ask_user) one credential may hold open at once. */
  SWITCHBOARD_OPEN_WAITS_PER_KEY: z.coerce.number().int().positive().default(8),
  /** Questions one agent may have open (asked, not yet answered or cancelled) at once. */
  SWITCHBOARD_MAX_OPEN_QUESTIONS: z.coerce.number().int().positive().default(20),
  /** Longest long-poll `read_inbox` may wait, in seconds. */
  SWITCHBOARD_MAX_WAIT_S: z.coerce.number().int().positive().default(55),
  /** Seconds between progress notifications while a call waits. */
  SWITCHBOARD_PROGRESS_EVERY_S: z.coerce.number().positive().default(5),
  /** `off` switches the human gateway off: questions that would reach the owner fail with gateway_unavailable. */
  SWITCHBOARD_HUMAN_GATEWAY: z.enum(["on", "off"]).default("on"),
  /** A unit of work that holds the database (SQLite: the queue) longer than this is logged (warn). */
  SWITCHBOARD_SLOW_UNIT_MS: z.coerce.number().nonnegative().default(100),
  /** Signs session cookies; AUTH_SECRET (Auth.js's name) works too. Unset: a file in the data directory. */
  NEXTAUTH_SECRET: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** The app's root (migrations are read from `<root>/prisma/migrations`); the CLI and the runner set it. */
  SWITCHBOARD_APP_DIR: z.string().optional(),

  // The watchdog and the tool-call bookkeeping, in seconds. Defaults are the orchestrator's; tests shorten them.
  /** `0` turns the watchdog off in this process. */
  SWITCHBOARD_WATCHDOG: z.enum(["0", "1"]).default("1"),
  /** Seconds between watchdog passes. */
  SWITCHBOARD_WATCHDOG_TICK_S: z.coerce.number().positive().default(30),
  /** A pending review (or termination request) unanswered this long gets ping #1; as long again, ping #2; again, the owner. */
  SWITCHBOARD_REVIEW_PING_S: z.coerce.number().positive().default(60),
  /** A leaf agent without a tool call for this long gets nudge #1 (then the same ladder, every REVIEW_PING_S). */
  SWITCHBOARD_IDLE_NUDGE_S: z.coerce.number().positive().default(120),
  /** An agent that has not read its terminate sentinel this long after it was posted is ended. */
  SWITCHBOARD_TERMINATE_GRACE_S: z.coerce.number().positive().default(60),
  /**
   * A question held by an agent without activity this long: ping #1 to the holder; as long again, ping #2; again,
   * it is passed one hop up (its leader, or the owner). Longer than a review's: a leader may be mid-turn.
   */
  SWITCHBOARD_QUESTION_PING_S: z.coerce.number().positive().default(300),
  /** Agent.lastToolCallAt is rewritten only when older than this (keeps /mcp to one cheap read per call). */
  SWITCHBOARD_TOOL_CALL_TOUCH_S: z.coerce.number().min(0).default(5),
  /** Test aid: extra milliseconds spawn_agent / create_team hold their per-agent lock (0 in production). */
  SWITCHBOARD_SPAWN_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(0),

  // The command-verification runner (`npm run runner`, docs/goals.md).
  /** Recorded as `runner:<id>` in verdicts; default `<hostname>-<pid>`. */
  SWITCHBOARD_RUNNER_ID: z.string().optional(),
  /** Jobs one runner runs at once. */
  SWITCHBOARD_RUNNER_CONCURRENCY: z.coerce.number().int().positive().default(2),
  /** Base directory of a command's relative `cwd`; default the runner's working directory. */
  SWITCHBOARD_WORKSPACE: z.string().optional(),
  /** A runner's lease on a job lasts the command's timeout plus this many seconds. */
  SWITCHBOARD_RUNNER_LEASE_GRACE_S: z.coerce.number().min(0).default(30),
  // issue 11: agent launches (docs/runner.md). Hub side:
  /** Seconds a runner's lease on a launched agent lasts; the runner renews it every third of that. */
  SWITCHBOARD_RUNNER_LEASE_S: z.coerce.number().positive().default(30),
  /** First restart delay after a crash, in milliseconds; doubles with each crash in a row. */
  SWITCHBOARD_RUNNER_BACKOFF_MS: z.coerce.number().int().min(0).default(2000),
  /** `npm start` also starts one runner in-process (`0`: off). */
  SWITCHBOARD_EMBEDDED_RUNNER: z.enum(["0", "1"]).default("1"),
  // Runner side (`npm run runner`, `switchboard runner start`; flags override):
  /** The hub's origin (`http://host:3000`) and a runner token (`sb_runner_…`). */
  SWITCHBOARD_RUNNER_HUB: z.string().optional(),
  SWITCHBOARD_RUNNER_TOKEN: z.string().optional(),
  /** Agents one runner runs at once; further launches stay queued on the hub. */
  SWITCHBOARD_RUNNER_MAX_AGENTS: z.coerce.number().int().positive().default(4),
  /** Where agent workspaces are made (`<dir>/goal-<id>/agent-<id>`); never the hub's data directory. */
  SWITCHBOARD_RUNNER_WORK_DIR: z.string().default("./runner-work"),
  /** The length of a template's `max_minutes` minute, in ms: 60000; the tests shorten it. */
  SWITCHBOARD_RUNNER_MINUTE_MS: z.coerce.number().int().positive().default(60_000),
  // issue 12: usage and budgets (docs/budgets.md).
  /** A JSON price table replacing the built-in one (lib/domain/usage/prices.json); checked at start. */
  SWITCHBOARD_PRICES_FILE: z.string().optional(),
  // The production server (server/main.ts, `npm start`); PORT is above.
  /** Interface to listen on. */
  HOSTNAME: z.string().default("0.0.0.0"),
  // issue 14: secrets (docs/secrets.md)
  /** The key that encrypts secrets: base64 of exactly 32 bytes. Unset: a key file in the data directory. */
  SWITCHBOARD_SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^[A-Za-z0-9+/]{43}=$/.test(v.trim()), {
      message: "must be the base64 encoding of exactly 32 bytes (openssl rand -base64 32)",
    }),
  // issue 17: notifications (docs/notifications.md)
  /** `0` turns the notification worker off in this process (notifications still queue up, durably). */
  SWITCHBOARD_NOTIFY: z.enum(["0", "1"]).default("1"),
  /** Milliseconds between the worker's passes (a new notification also wakes it). */
  SWITCHBOARD_NOTIFY_TICK_MS: z.coerce.number().int().positive().default(1000),
  /** Default batching: at most one message per goal and channel per this many seconds (owners override it). */
  SWITCHBOARD_NOTIFY_BATCH_S: z.coerce.number().min(0).default(60),
  /** Delays before each retry of a failed delivery, in seconds, comma-separated (about 28 h in all). */
  SWITCHBOARD_NOTIFY_RETRY_S: z.string().default("5,300,1800,7200,18000,36000,36000"),
  /** Timeout of one outgoing call (webhook, Slack, SMTP), in milliseconds. */
  SWITCHBOARD_NOTIFY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** A channel is disabled (and its owner told) after this many deliveries in a row exhausted their retries. */
  SWITCHBOARD_NOTIFY_DISABLE_AFTER: z.coerce.number().int().positive().default(1),
  /** `1` lets webhook and Slack URLs reach private, loopback and link-local addresses (SSRF guard off). */
  SWITCHBOARD_NOTIFY_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),
  /** SMTP hosts (names or addresses, comma-separated) that email channels may use even where they are private
   *  or loopback, e.g. `localhost` for a relay on this machine; every other SMTP host gets the SSRF guard. */
  SWITCHBOARD_SMTP_HOSTS: z.string().default(""),
  /** How long a link or button in a notification can act (single use), in seconds. */
  SWITCHBOARD_NOTIFY_ACTION_TTL_S: z.coerce.number().int().positive().default(14_400),
  // issue 15: PostgreSQL mode (docs/database.md)
  /** PostgreSQL: connections this process keeps to the database (the pool every unit of work shares). */
  SWITCHBOARD_PG_POOL: z.coerce.number().int().min(2).max(200).default(10),
  /** PostgreSQL: log this process's statements, round trips and NOTIFYs every N seconds (0: never; benchmarks). */
  SWITCHBOARD_PG_TRAFFIC_LOG_S: z.coerce.number().min(0).default(0),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= schema.parse(process.env);
  return cached;
}

export function dataDir(): string {
  return path.resolve(env().SWITCHBOARD_DATA_DIR);
}

export function isPostgres(url = env().DATABASE_URL): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The app's own origin, when configured. */
export function publicOrigin(): string | undefined {
  const url = env().SWITCHBOARD_URL ?? env().NEXTAUTH_URL;
  return url ? new URL(url).origin : undefined;
}

/**
 * The given variables of the host environment, as they are (unset ones left out): what a child process
 * may inherit (the runner passes PATH, HOME, … to verification commands and nothing else).
 */
export function hostVariables(names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of names) {
    const v = process.env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
