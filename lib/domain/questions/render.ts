import { DomainError, invalidInput } from "@/lib/errors";
import type { AnswerEntry, AnswerOut, SubQuestion } from "./schemas";

/**
 * `answer_text` exactly as the contract renders it, one line per sub-question:
 * free text → the text; single-select → the chosen label ("Other" → the typed text); multi-select →
 * comma-joined labels; each line prefixed with `<header>: ` when the header is non-empty.
 * The contract is silent on an option with `requires_text`: its typed text follows the label(s) after
 * ": " so the rendering loses nothing (docs/questions.md).
 */
export function renderAnswerText(questions: SubQuestion[], answers: AnswerOut[]): string {
  return questions
    .map((q, i) => {
      const a = answers[i] ?? { selected_labels: [], selected_values: [], text: null };
      const text = a.text ?? "";
      let line: string;
      if (q.options.length === 0 || a.selected_labels.length === 0) line = text;
      else {
        line = a.selected_labels.join(", ");
        if (text) line += `: ${text}`;
      }
      return q.header ? `${q.header}: ${line}` : line;
    })
    .join("\n");
}

/**
 * Check answers against the question (after the count check) and derive `selected_values` from the
 * matched options (label fallback). Throws `invalid_input` naming `answers[i].<field>`.
 */
export function checkAnswers(questions: SubQuestion[], answers: AnswerEntry[]): AnswerOut[] {
  if (answers.length !== questions.length) {
    throw new DomainError(
      "answer_count_mismatch",
      `The question has ${questions.length} sub-question(s) but ${answers.length} answer(s) were given.`,
      {
        details: { expected: questions.length, got: answers.length },
      },
    );
  }
  return questions.map((q, i) => {
    const a = answers[i] as AnswerEntry;
    const at = (field: string, msg: string) =>
      invalidInput(`answers[${i}].${field}: ${msg}`, { index: i, field });
    const text = a.text?.trim() ? a.text : null;
    const labels = a.selected_labels;
    if (q.options.length === 0) {
      if (labels.length > 0) throw at("selected_labels", "this is a free-text question: leave it empty");
      if (!text) throw at("text", "this is a free-text question: the text must not be empty");
      return { selected_labels: [], selected_values: [], text };
    }
    if (new Set(labels).size !== labels.length) throw at("selected_labels", "a label is chosen twice");
    const chosen = labels.map((l) => {
      const o = q.options.find((opt) => opt.label === l);
      if (!o)
        throw at("selected_labels", `"${l}" is not an option (${q.options.map((x) => x.label).join(", ")})`);
      return o;
    });
    if (!q.multiSelect && chosen.length > 1) throw at("selected_labels", "single-select: choose one option");
    if (chosen.length === 0) {
      if (q.multiSelect) throw at("selected_labels", "multi-select: choose at least one option");
      if (!text) throw at("text", "choose an option, or give the 'Other' answer in text");
      return { selected_labels: [], selected_values: [], text };
    }
    const needsText = chosen.some((o) => o.requires_text);
    if (needsText && !text)
      throw at("text", `option "${chosen.find((o) => o.requires_text)?.label}" requires a text`);
    if (!needsText && text) throw at("text", "text is only for 'Other' or an option with requires_text");
    return {
      selected_labels: chosen.map((o) => o.label),
      selected_values: chosen.map((o) => o.value ?? o.label),
      text,
    };
  });
}
