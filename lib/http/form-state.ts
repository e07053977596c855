import { z } from "zod";
import { isDomainError } from "@/lib/errors";

/** What a form's server action hands back: a message, per-field messages, and the values to refill. */
export type FormState = {
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

/** Form fields as strings (files are not used by these forms). */
export function formValues(form: FormData, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, String(form.get(n) ?? "")]));
}

/** The form state for a failed action: zod issues by field, domain errors as the form's message. */
export function failure(e: unknown, values: Record<string, string> = {}): FormState {
  if (e instanceof z.ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of e.issues) {
      const field = String(issue.path[0] ?? "");
      fieldErrors[field] ??= issue.message;
    }
    return { error: fieldErrors[""] ?? "Please fix the highlighted fields.", fieldErrors, values };
  }
  if (isDomainError(e)) {
    const field = typeof e.details.field === "string" ? e.details.field : undefined;
    return { error: e.message, fieldErrors: field ? { [field]: e.message } : {}, values };
  }
  throw e;
}
