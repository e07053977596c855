import { z } from "zod";

/** Bounds of every string and list we accept (the contract caps only the header). */
export const LIMITS = {
  questions: 4,
  header: 12,
  question: 2000,
  label: 120,
  description: 1000,
  value: 120,
  context: 16_000,
  text: 8000,
  reason: 2000,
  qid: 64,
} as const;

export const optionSchema = z.strictObject({
  label: z.string().min(1).max(LIMITS.label).describe("What the option says (a chip / radio label)."),
  description: z.string().max(LIMITS.description).describe("One line on what choosing it means."),
  value: z
    .string()
    .min(1)
    .max(LIMITS.value)
    .optional()
    .describe("Machine discriminator mirrored into selected_values (defaults to label)."),
  requires_text: z
    .boolean()
    .optional()
    .describe(
      "When true the answerer must also type a text once this option is chosen (returned in `text`).",
    ),
});

export const subQuestionSchema = z
  .strictObject({
    question: z.string().min(1).max(LIMITS.question).describe("The question text."),
    header: z.string().max(LIMITS.header).describe("<= 12 chars; a chip label in the UI. May be empty."),
    multiSelect: z.boolean().describe("false = radio (single-select), true = checkboxes (multi-select)."),
    options: z.array(optionSchema).max(4).describe("0 options (free text only) or 2..4 options (choice)."),
  })
  .superRefine((q, ctx) => {
    if (q.options.length === 1) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "options must have length 0 (free text) or 2..4 (choice), got 1",
      });
    }
    const labels = new Set<string>();
    q.options.forEach((o, i) => {
      if (labels.has(o.label))
        ctx.addIssue({
          code: "custom",
          path: ["options", i, "label"],
          message: `duplicate label "${o.label}"`,
        });
      labels.add(o.label);
    });
    if (q.multiSelect && q.options.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["multiSelect"],
        message: "multiSelect needs options (a free-text question has none)",
      });
    }
  });

export type SubQuestion = z.infer<typeof subQuestionSchema>;

export const askUserInput = z.strictObject({
  questions: z
    .array(subQuestionSchema)
    .min(1)
    .max(LIMITS.questions)
    .describe("1..4 sub-questions, answered together."),
  context: z.string().max(LIMITS.context).optional().describe("Optional shared background, shown verbatim."),
});

export type AskUserInput = z.infer<typeof askUserInput>;

export const answerEntrySchema = z.strictObject({
  selected_labels: z
    .array(z.string().max(LIMITS.label))
    .max(4)
    .default([])
    .describe("Labels of the chosen options; empty for a free-text or 'Other' answer."),
  text: z
    .string()
    .max(LIMITS.text)
    .nullable()
    .default(null)
    .describe("Free text ('Other', free-text questions, requires_text)."),
});

export type AnswerEntry = z.infer<typeof answerEntrySchema>;

export const answersSchema = z
  .array(answerEntrySchema)
  .min(1)
  .max(LIMITS.questions)
  .describe("One entry per sub-question, in order.");

const qidSchema = z.string().min(1).max(LIMITS.qid).describe("The qid from the [INBOX QUESTION] message.");

export const answerQuestionInput = z.strictObject({
  qid: qidSchema,
  answers: answersSchema,
  reason: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.reason)
    .describe("Why you can answer this yourself instead of escalating (audit trail)."),
});

export const escalateQuestionInput = z.strictObject({
  qid: qidSchema,
  reason: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.reason)
    .describe("Why you cannot answer it yourself (audit trail)."),
});

/** One answer as the asker receives it. */
export const answerOutSchema = z.object({
  selected_labels: z.array(z.string()),
  selected_values: z.array(z.string()),
  text: z.string().nullable(),
});

export type AnswerOut = z.infer<typeof answerOutSchema>;

export const askUserOutput = z.object({ answers: z.array(answerOutSchema), answer_text: z.string() });

export const answerQuestionOutput = z.object({ ok: z.literal(true), qid: z.string() });

export const escalateQuestionOutput = z.object({
  ok: z.literal(true),
  qid: z.string(),
  new_holder: z.string().nullable(),
});

/** REST bodies: the same answer entries; decline needs a reason. */
export const ownerAnswerBody = z.strictObject({ answers: answersSchema });
export const ownerDeclineBody = z.strictObject({ reason: z.string().trim().min(1).max(LIMITS.reason) });
