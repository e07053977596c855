import { z } from "zod";
import { DomainError, invalidInput } from "./domain-error";
import { storageValueError } from "./storage";

/** One offending field of an `invalid_input` built from zod: `path` is dotted (`answers.0.text`), `(input)` for the root. */
export type FieldIssue = { path: string; message: string };

/**
 * The one zod → domain mapping of every surface (MCP, REST, forms, CLI): zod issues become one
 * `invalid_input` whose message names each offending field and whose `details.issues` lists them.
 */
export function zodToDomain(error: z.ZodError): DomainError {
  const issues: FieldIssue[] = error.issues.map((i) => ({
    path: i.path.join(".") || "(input)",
    message: i.message,
  }));
  return invalidInput(issues.map((f) => `${f.path}: ${f.message}`).join("; "), { issues });
}

/**
 * A thrown value as a domain error: itself, a `ZodError` mapped by `zodToDomain`, a PostgreSQL refusal of a
 * value as `invalid_input` (lib/errors/storage.ts), or undefined for anything else.
 */
export function toDomainError(e: unknown): DomainError | undefined {
  if (e instanceof DomainError) return e;
  if (e instanceof z.ZodError) return zodToDomain(e);
  return storageValueError(e);
}

/** The issues of an `invalid_input` from `zodToDomain` (empty for any other error). */
export function fieldIssues(e: DomainError): FieldIssue[] {
  const issues = e.details.issues;
  return Array.isArray(issues) ? (issues as FieldIssue[]) : [];
}
