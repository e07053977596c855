import { type DomainError, invalidInput } from "./domain-error";

/**
 * PostgreSQL's refusals of a value (not of a rule): a number out of a column's range (22003), a NUL or
 * invalid byte in text (22021, 22P05). Each is caused by input the schemas let through, and the failed
 * statement aborted its unit (nothing was written), so it is `invalid_input`, not `internal_error`. A
 * safety net behind the schemas' own bounds (lib/ids.ts MAX_DB_INT, lib/errors/nul.ts); found by the fuzz
 * test, issue 16 §6.
 */
const VALUE_CODES: Record<string, string> = {
  "22003": "A number is out of the range the database can store (ids and budgets are at most 2,147,483,647).",
  "22021": "A text contains a character the database cannot store (NUL, U+0000).",
  "22P05": "A text contains a character the database cannot store (NUL, U+0000).",
};

export function storageValueError(e: unknown): DomainError | undefined {
  const meta = (e as { meta?: { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } } })
    ?.meta;
  const cause = meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code;
  const message = code ? VALUE_CODES[code] : undefined;
  return message ? invalidInput(message, { database_code: code }) : undefined;
}
