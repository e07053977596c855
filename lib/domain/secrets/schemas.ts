import { z } from "zod";

/** A secret's name: what the agent's process finds in its environment (`$NAME`). */
export const NAME_PATTERN = /^[A-Z][A-Z0-9_]*$/;
export const secretName = z
  .string()
  .max(128)
  .regex(NAME_PATTERN, "must match ^[A-Z][A-Z0-9_]*$ (an environment variable name, e.g. STRIPE_API_KEY)");

export const SCOPE_TYPES = ["user", "agent", "task"] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];
export const scopeType = z.enum(SCOPE_TYPES);

export const RESOURCE_TYPES = ["api_key", "credential", "url", "file", "other"] as const;

/** Largest value accepted, in UTF-8 bytes (an environment variable; a `file` is its text). */
export const MAX_SECRET_BYTES = 65_536;

/**
 * A value as the owner supplies it: non-empty, at most MAX_SECRET_BYTES, no NUL (an environment variable
 * cannot hold one). The messages never quote the value.
 */
export const secretValue = z
  .string()
  .refine((v) => v.trim().length > 0, "must not be empty")
  .refine(
    (v) => Buffer.byteLength(v, "utf8") <= MAX_SECRET_BYTES,
    `must be at most ${MAX_SECRET_BYTES} bytes`,
  )
  .refine((v) => !v.includes("\0"), "must not contain a NUL byte (it becomes an environment variable)");

/** Precedence at launch: a task's value beats the agent's, which beats the owner's (all their agents). */
export const PRECEDENCE: Record<ScopeType, number> = { task: 3, agent: 2, user: 1 };
