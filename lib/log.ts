import { env } from "@/lib/env";

/** Minimal structured logger (JSON lines on stderr). Never log credentials. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

function log(level: Level, fields: Record<string, unknown>, msg: string) {
  if (LEVELS[level] < LEVELS[env().LOG_LEVEL]) return;
  const err =
    fields.err instanceof Error ? { err: { message: fields.err.message, stack: fields.err.stack } } : {};
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields, ...err })}\n`,
  );
}

export const logger = {
  debug: (f: Record<string, unknown>, m: string) => log("debug", f, m),
  info: (f: Record<string, unknown>, m: string) => log("info", f, m),
  warn: (f: Record<string, unknown>, m: string) => log("warn", f, m),
  error: (f: Record<string, unknown>, m: string) => log("error", f, m),
};
