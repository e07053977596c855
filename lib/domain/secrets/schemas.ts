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

/** Largest text value accepted, in UTF-8 bytes (it becomes an environment variable). */
export const MAX_SECRET_BYTES = 65_536;

/**
 * Largest file value accepted, in bytes (256 KiB). A file is delivered as a file, not in the environment
 * (docs/secrets.md, "Files"); the cap keeps its encrypted row, the runner's job (base64 in JSON) and the
 * browser's upload well under the 1 MiB request-body caps. Credential files (service-account JSON,
 * kubeconfig, PKCS#12, an SSH key) are a few KiB.
 */
export const MAX_FILE_SECRET_BYTES = 262_144;

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

/**
 * A file value: its bytes exactly as uploaded (binary-safe; NUL bytes allowed), non-empty, at most
 * MAX_FILE_SECRET_BYTES.
 */
export const secretFile = z
  .custom<Buffer>((v) => Buffer.isBuffer(v), "must be a file's bytes")
  .refine((b) => b.length > 0, "must not be an empty file")
  .refine(
    (b) => b.length <= MAX_FILE_SECRET_BYTES,
    `must be a file of at most ${MAX_FILE_SECRET_BYTES} bytes (256 KiB)`,
  );

/** A file in a JSON body: its bytes as base64. */
export const secretFileBase64 = z
  .string()
  .regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, "must be base64")
  .transform((s): Buffer => Buffer.from(s, "base64"))
  .pipe(secretFile);

/** What the owner supplies: text (`string`, an environment variable) or a file (`Buffer`, a file). */
export type SecretPlain = string | Buffer;

/** A value in the domain: text checked as `secretValue`, a Buffer as `secretFile`. */
export const secretPlain = z
  .custom<SecretPlain>((v) => typeof v === "string" || Buffer.isBuffer(v), "must be a string")
  .superRefine((v, ctx) => {
    const r = (typeof v === "string" ? secretValue : secretFile).safeParse(v);
    if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: "custom", message: i.message });
  });
/**
 * A value in a JSON body or a form: exactly one of `value` (text, or a Buffer from a form's file) and
 * `file_base64` (a file's bytes in JSON); `onePlain` folds them into `value: string | Buffer`.
 */
export const plainFields = {
  value: secretPlain.optional(),
  file_base64: secretFileBase64.optional(),
};
export function onePlain<T extends { value?: SecretPlain; file_base64?: Buffer }>(
  d: T,
  ctx: z.RefinementCtx,
): Omit<T, "file_base64" | "value"> & { value: SecretPlain } {
  const { value, file_base64, ...rest } = d;
  if ((value === undefined) === (file_base64 === undefined)) {
    ctx.addIssue({ code: "custom", path: ["value"], message: "give exactly one of value and file_base64" });
    return z.NEVER;
  }
  return { ...rest, value: (value ?? file_base64) as SecretPlain };
}

/** Precedence at launch: a task's value beats the agent's, which beats the owner's (all their agents). */
export const PRECEDENCE: Record<ScopeType, number> = { task: 3, agent: 2, user: 1 };
