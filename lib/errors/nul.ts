import { type DomainError, invalidInput } from "./domain-error";
import type { FieldIssue } from "./zod";

const MESSAGE = "contains a NUL character (U+0000), which cannot be stored; remove it";

/**
 * Strings with a NUL character anywhere in a tool's arguments or a REST body, as one `invalid_input` naming
 * each field (the same shape as a schema error), or undefined. PostgreSQL cannot store U+0000 in text (the
 * insert failed as an internal error, found by the fuzz test); SQLite could: both providers now refuse it
 * alike, before anything is written.
 */
export function nulCharacters(value: unknown): DomainError | undefined {
  const issues: FieldIssue[] = [];
  const walk = (v: unknown, path: string[], depth: number) => {
    if (issues.length >= 20 || depth > 64) return;
    if (typeof v === "string") {
      if (v.includes("\u0000")) issues.push({ path: path.join(".") || "(input)", message: MESSAGE });
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, [...path, String(i)], depth + 1);
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes("\u0000")) issues.push({ path: [...path, k].join("."), message: MESSAGE });
        walk(x, [...path, k], depth + 1);
      }
    }
  };
  walk(value, [], 0);
  if (issues.length === 0) return undefined;
  return invalidInput(issues.map((f) => `${f.path}: ${f.message}`).join("; "), { issues });
}
