import { CATALOGUE, type ErrorCode } from "./catalogue";

/**
 * Typed domain errors. Services throw `DomainError`; each surface maps it once:
 * MCP → `isError` result with `structuredContent.error`, REST → `{error}` with the code's HTTP status,
 * forms → the form's message, CLI → `error: <code>: <message>` on stderr.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /** What the caller should do next (the site's own, else the catalogue's); appended to what an agent sees. */
  readonly hint: string;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: Record<string, unknown>; hint?: string } = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.details = opts.details ?? {};
    this.hint = opts.hint ?? CATALOGUE[code].hint;
  }

  /** The HTTP status of this code (one per code, from the catalogue). */
  get status(): number {
    return CATALOGUE[this.code].status;
  }

  toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Input failed its schema or a rule on one field. The message names the offending field. */
export const invalidInput = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError("invalid_input", message, { details });

/** The object does not exist, or the caller may not see it (never reveal which). */
export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);

/** The caller is authenticated but not allowed to do this. */
export const forbidden = (message: string) => new DomainError("forbidden", message);

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
