import { fieldIssues, toDomainError } from "@/lib/errors";

/** What a form's server action hands back: a message, per-field messages, and the values to refill. */
export type FormState = {
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

/**
 * A secret's value from a form: the uploaded file's bytes (field `file`, when a file was chosen) or the
 * pasted text (field `value`). The bytes stay bytes: a binary file is not decoded as text.
 */
export async function formSecretValue(form: FormData): Promise<string | Buffer> {
  const file = form.get("file");
  if (file instanceof File && file.size > 0) return Buffer.from(await file.arrayBuffer());
  return String(form.get("value") ?? "");
}

/** Form fields as strings (files: `formSecretValue`). */
export function formValues(form: FormData, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, String(form.get(n) ?? "")]));
}

/**
 * The form state for a failed action, from the one error mapping (`toDomainError`): schema issues by
 * field (the first segment of each issue's path), any other domain error as the form's message (and on
 * its field when `details.field` names one). Anything else is rethrown.
 */
export function failure(e: unknown, values: Record<string, string> = {}): FormState {
  const d = toDomainError(e);
  if (!d) throw e;
  const issues = fieldIssues(d);
  if (issues.length > 0) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of issues) {
      const field = issue.path === "(input)" ? "" : (issue.path.split(".")[0] ?? "");
      fieldErrors[field] ??= issue.message;
    }
    return { error: fieldErrors[""] ?? "Please fix the highlighted fields.", fieldErrors, values };
  }
  const field = typeof d.details.field === "string" ? d.details.field : undefined;
  return { error: d.message, fieldErrors: field ? { [field]: d.message } : {}, values };
}

/** The one-line message of a failed action that has no per-field form (same mapping); anything else is rethrown. */
export function actionError(e: unknown): string {
  const d = toDomainError(e);
  if (!d) throw e;
  return d.message;
}
