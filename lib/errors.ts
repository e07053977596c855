/**
 * Typed domain errors. Services throw `DomainError`; each surface maps it once:
 * MCP → `isError` result with `structuredContent.error`, REST → `{error}` with an HTTP status.
 * Codes are the contracts' own (`unknown_recipient`, `ErrAlreadyClaimed`, …) plus a few of ours.
 */
export class DomainError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** What the caller should do next; appended to the message an agent sees. */
  readonly hint: string | undefined;
  readonly status: number;

  constructor(
    code: string,
    message: string,
    opts: { details?: Record<string, unknown>; hint?: string; status?: number } = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.details = opts.details ?? {};
    this.hint = opts.hint;
    this.status = opts.status ?? 400;
  }

  toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Input failed its schema. The message names the offending field. */
export const invalidInput = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError("invalid_input", message, {
    details,
    hint: "Fix the named field and call again.",
    status: 422,
  });

/** The object does not exist, or the caller may not see it (never reveal which). */
export const notFound = (what: string) => new DomainError("not_found", `${what} not found`, { status: 404 });

/** The caller is authenticated but not allowed to do this. */
export const forbidden = (message: string) => new DomainError("forbidden", message, { status: 403 });

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
