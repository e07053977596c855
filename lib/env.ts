import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable Switchboard reads, validated once. The README's configuration
 * reference mirrors this list.
 */
const schema = z.object({
  DATABASE_URL: z.string().default("file:./data/switchboard.db"),
  SWITCHBOARD_DATA_DIR: z.string().default("./data"),
  /** Public origin of the app (e.g. https://switchboard.example.com); next-auth's NEXTAUTH_URL also works. */
  SWITCHBOARD_URL: z.string().optional(),
  NEXTAUTH_URL: z.string().optional(),
  /** Extra origins allowed to call /mcp and the REST API from a browser, comma-separated. */
  SWITCHBOARD_ALLOWED_ORIGINS: z.string().default(""),
  SWITCHBOARD_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SWITCHBOARD_INBOX_CAP: z.coerce.number().int().positive().default(1000),
  /** Longest long-poll `read_inbox` may wait, in seconds. */
  SWITCHBOARD_MAX_WAIT_S: z.coerce.number().int().positive().default(55),
  /** Seconds between progress notifications while a call waits. */
  SWITCHBOARD_PROGRESS_EVERY_S: z.coerce.number().positive().default(5),
  /** `off` switches the human gateway off: questions that would reach the owner fail with gateway_unavailable. */
  SWITCHBOARD_HUMAN_GATEWAY: z.enum(["on", "off"]).default("on"),
  /** A unit of work that holds the database (SQLite: the queue) longer than this is logged (warn). */
  SWITCHBOARD_SLOW_UNIT_MS: z.coerce.number().nonnegative().default(100),
  NEXTAUTH_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
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
