import { checkAnswers } from "@/lib/domain/questions/render";
import {
  type AnswerEntry,
  ownerAnswerBody,
  ownerDeclineBody,
  type SubQuestion,
} from "@/lib/domain/questions/schemas";
import { type DomainError, fieldIssues, toDomainError } from "@/lib/errors";

/** The "Other…" choice of a single-select sub-question (its answer is the typed text). */
export const OTHER = "__other__";

/** What the owner has chosen and typed for one sub-question. */
export type Draft = { selected: string[]; text: string };

/**
 * The answer entry a draft stands for (UI state → the REST body): free text and "Other…" send the text
 * alone; otherwise the chosen labels, with the text only when a chosen option requires one. Whether the
 * entry is acceptable is not decided here but by `answerBody`.
 */
export function toEntry(q: SubQuestion, d: Draft): AnswerEntry {
  const text = d.text.trim() || null;
  if (q.options.length === 0 || d.selected.includes(OTHER)) return { selected_labels: [], text };
  const needsText = q.options.some((o) => o.requires_text && d.selected.includes(o.label));
  return { selected_labels: d.selected, text: needsText ? text : null };
}

/**
 * The body of `POST /api/questions/:qid/answer` for these drafts, checked exactly as the server checks
 * it (the REST schema, then the domain's answer check), or the reason it cannot be sent yet.
 */
export function answerBody(
  questions: SubQuestion[],
  drafts: Draft[],
): { body: { answers: AnswerEntry[] } } | { blocker: string } {
  const answers = questions.map((q, i) => toEntry(q, drafts[i] ?? { selected: [], text: "" }));
  try {
    const body = ownerAnswerBody.parse({ answers });
    checkAnswers(questions, body.answers);
    return { body };
  } catch (e) {
    const d = toDomainError(e);
    if (!d) throw e;
    return { blocker: blockerText(d, questions.length) };
  }
}

/** True when the decline reason passes the REST schema. */
export const declinable = (reason: string) => ownerDeclineBody.safeParse({ reason }).success;

/** The domain's message, with "answers[i].field" / "answers.i.field" turned into "Question i+1" when there are several. */
function blockerText(e: DomainError, count: number): string {
  const issue = fieldIssues(e)[0];
  const [index, message] = issue
    ? [Number(issue.path.split(".")[1]), issue.message]
    : [
        typeof e.details.index === "number" ? e.details.index : Number.NaN,
        e.message.replace(/^answers\[\d+\]\.\w+: /, ""),
      ];
  return count > 1 && Number.isInteger(index) ? `Question ${index + 1}: ${message}` : message;
}
