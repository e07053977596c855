import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { renderAnswerText } from "./render";
import type { AnswerOut } from "./schemas";
import { notifyQuestion, parseQuestion, type QuestionRow, unknownQid } from "./store";
import { onSystemQuestionClosed } from "./system-answer";

/** Inbox message kind that carries an answer (or a decline) to its asker. */
export const ANSWER_KIND = "question_answer";

export type Resolution =
  | { kind: "answered"; answers: AnswerOut[]; by: string; reason?: string }
  | { kind: "declined"; reason: string; by: string };

/**
 * Close a pending question, exactly once: a conditional update on (status = pending, holder = the
 * resolver) — a racing second answer (any instance, any surface) updates nothing and gets `unknown_qid`.
 * Then the event, the answer in the asker's inbox (so it survives a dropped ask_user call), and the
 * wake-ups; system questions (root review, watchdog) run their own consequences instead.
 */
export async function resolveQuestion(
  u: Unit,
  q: QuestionRow,
  holderId: number | null,
  r: Resolution,
): Promise<void> {
  const { questions } = parseQuestion(q);
  const now = new Date();
  const answerText = r.kind === "answered" ? renderAnswerText(questions, r.answers) : null;
  const { count } = await u.db.question.updateMany({
    where: { id: q.id, status: "pending", holderId },
    data:
      r.kind === "answered"
        ? {
            status: "answered",
            answersJson: JSON.stringify(r.answers),
            answerText,
            answeredBy: r.by,
            answeredAt: now,
            activityAt: now,
          }
        : { status: "declined", declineReason: r.reason, answeredBy: r.by, answeredAt: now, activityAt: now },
  });
  if (count === 0) {
    const current = await u.db.question.findUnique({ where: { id: q.id }, select: { status: true } });
    throw unknownQid(q.id, current?.status);
  }
  await appendEvent(u, {
    goalId: q.goalId,
    name: "question_answered",
    agentId: holderId,
    data: {
      qid: q.id,
      asker: String(q.askerId),
      answered_by: r.by,
      status: r.kind,
      ...(r.kind === "answered"
        ? { answer_text: answerText, reason: r.reason ?? null }
        : { reason: r.reason }),
    },
  });
  notifyQuestion(u, q);
  if (q.origin !== "agent") {
    await onSystemQuestionClosed(u, q, r);
    return;
  }
  const content =
    r.kind === "answered"
      ? `[QUESTION ANSWERED] qid=${q.id} (answered by ${r.by})\n${answerText}\n\nanswers: ${JSON.stringify(r.answers)}\n(If your ask_user call already returned this answer, there is nothing more to do: acknowledge it.)`
      : `[QUESTION DECLINED] qid=${q.id}: the owner declined to answer. Reason: ${r.reason}`;
  await insertMessage(u, {
    goalId: q.goalId,
    recipientAgentId: q.askerId,
    sender: { kind: "system" },
    kind: ANSWER_KIND,
    content,
    meta: { qid: q.id },
  });
}
