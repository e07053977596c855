import { answerQuestion } from "@/lib/domain/questions/answer-question";
import { askUser } from "@/lib/domain/questions/ask-user";
import { escalateQuestion } from "@/lib/domain/questions/escalate-question";
import {
  answerQuestionInput,
  answerQuestionOutput,
  askUserInput,
  askUserOutput,
  escalateQuestionInput,
  escalateQuestionOutput,
} from "@/lib/domain/questions/schemas";
import { defineTool } from "../registry";

export const askUserTool = defineTool({
  name: "ask_user",
  title: "Ask a question up the leader chain",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description: [
    "Ask 1..4 questions (each: question, header <= 12 chars, multiSelect, options: 0 for free text or 2..4",
    "{label, description, value?, requires_text?}) plus optional shared context. The question goes to your leader's",
    "inbox, who answers or escalates it; at the top it reaches the human owner. BLOCKS with no timeout until answered",
    "(send a progressToken to get progress notifications while waiting). If your call is cut off, the answer still",
    "arrives in your inbox (kind question_answer), and asking the identical question again re-attaches to it.",
    "invalid_input names the sub-question index and field.",
  ].join(" "),
  errors: [
    "invalid_input",
    "user_declined",
    "gateway_unavailable",
    "cancelled",
    "too_many_questions",
    "rate_limited",
  ],
  input: askUserInput,
  output: askUserOutput,
  waits: () => true,
  handler: ({ caller, signal, progress }, input) =>
    askUser(caller, input, {
      signal,
      onProgress: (ms) => progress(ms / 1000, `waiting for an answer (${Math.round(ms / 1000)} s)`),
    }),
});

export const answerQuestionTool = defineTool({
  name: "answer_question",
  title: "Answer a question routed to you",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Resolve an [INBOX QUESTION] you hold: one answer per sub-question, in order, each {selected_labels, text}",
    "(free text or 'Other': empty selected_labels and the answer in text), plus a reason (audit trail). The asker's",
    "ask_user returns your answer. invalid_input names answers[i] and the field.",
  ].join(" "),
  errors: ["unknown_qid", "not_holder", "answer_count_mismatch", "invalid_input"],
  input: answerQuestionInput,
  output: answerQuestionOutput,
  handler: ({ caller }, input) => answerQuestion(caller, input),
});

export const escalateQuestionTool = defineTool({
  name: "escalate_question",
  title: "Pass a question one hop up",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Push an [INBOX QUESTION] you hold to your own leader (or to the human owner when your leader is the owner;",
    "new_holder is then null), with a reason. Returns at once; the answer goes to the original asker, not to you.",
  ].join(" "),
  errors: ["unknown_qid", "not_holder", "stale", "gateway_unavailable"],
  input: escalateQuestionInput,
  output: escalateQuestionOutput,
  handler: ({ caller }, input) => escalateQuestion(caller, input),
});
