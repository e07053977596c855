import type { z } from "zod";
import { write } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { checkAnswers } from "./render";
import { resolveQuestion } from "./resolve";
import type { answerQuestionInput } from "./schemas";
import { holderLabel, parseQuestion, questionInGoal, unknownQid } from "./store";

export const notHolder = (qid: string, holder: string) =>
  new DomainError("not_holder", `You are not the current holder of question ${qid}.`, {
    details: { qid, holder },
    hint: "Only the agent the question was last routed to may answer or escalate it.",
  });

/**
 * `answer_question`: the current holder (a leader) answers a question routed to it. Errors in the
 * contract's order: unknown_qid (none pending in your goal), not_holder, answer_count_mismatch, then
 * invalid_input for an answer that does not fit its sub-question.
 */
export async function answerQuestion(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof answerQuestionInput>,
) {
  return write(async (u) => {
    const q = await questionInGoal(u, input.qid, caller.goalId);
    if (q.status !== "pending") throw unknownQid(input.qid, q.status);
    if (q.holderId !== caller.agentId) throw notHolder(q.id, holderLabel(q.holderId));
    const answers = checkAnswers(parseQuestion(q).questions, input.answers);
    await resolveQuestion(u, q, caller.agentId, {
      kind: "answered",
      answers,
      by: String(caller.agentId),
      reason: input.reason,
    });
    return { ok: true as const, qid: q.id };
  });
}
