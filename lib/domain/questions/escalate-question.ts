import type { z } from "zod";
import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { DomainError } from "@/lib/errors";
import { notHolder } from "./answer-question";
import type { escalateQuestionInput } from "./schemas";
import {
  agentNames,
  gatewayOn,
  gatewayUnavailable,
  type Hop,
  holderLabel,
  inboxQuestionText,
  nextHolder,
  notifyQuestion,
  parseQuestion,
  questionInGoal,
} from "./store";

const stale = (qid: string, status: string, holder: string) =>
  new DomainError("stale", `Question ${qid} is no longer yours to escalate (${status}).`, {
    details: { qid, status, holder },
  });

/**
 * `escalate_question`: the holder pushes the question one hop up (its own leader; the owner when the
 * holder is the coordinator). Fire-and-forget. `stale` when it is no longer pending, or when the caller
 * held it earlier and it has moved on (an escalation that lost a race); `not_holder` for anyone else.
 */
export async function escalateQuestion(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof escalateQuestionInput>,
) {
  return write(async (u) => {
    const q = await questionInGoal(u, input.qid, caller.goalId);
    const { chain, hops, questions } = parseQuestion(q);
    if (q.status !== "pending") throw stale(q.id, q.status, holderLabel(q.holderId));
    if (q.holderId !== caller.agentId) {
      if (chain.includes(caller.agentId)) throw stale(q.id, "escalated past you", holderLabel(q.holderId));
      throw notHolder(q.id, holderLabel(q.holderId));
    }
    const next = await nextHolder(u, caller.agentId);
    if (next === null && !gatewayOn()) throw gatewayUnavailable();
    const now = new Date();
    const newHops: Hop[] = [
      ...hops,
      { from: caller.agentId, to: next, reason: input.reason, at: now.toISOString() },
    ];
    const { count } = await u.db.question.updateMany({
      where: { id: q.id, status: "pending", holderId: caller.agentId },
      data: {
        holderId: next,
        chainJson: JSON.stringify(next === null ? chain : [...chain, next]),
        hopsJson: JSON.stringify(newHops),
        activityAt: now,
      },
    });
    if (count === 0) throw stale(q.id, "changed meanwhile", "unknown");
    if (next !== null) {
      const names = await agentNames(u, [q.askerId, ...newHops.map((h) => h.from)]);
      await insertMessage(u, {
        goalId: q.goalId,
        recipientAgentId: next,
        sender: { kind: "system" },
        kind: "question",
        content: inboxQuestionText(q, names, newHops, questions),
        meta: { qid: q.id },
      });
    }
    await appendEvent(u, {
      goalId: q.goalId,
      name: "question_escalated",
      agentId: caller.agentId,
      data: { qid: q.id, from: String(caller.agentId), to: holderLabel(next), reason: input.reason },
    });
    notifyQuestion(u, q);
    return { ok: true as const, qid: q.id, new_holder: next === null ? null : String(next) };
  });
}
