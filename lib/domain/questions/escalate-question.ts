import type { z } from "zod";
import { type Unit, write } from "@/lib/db";
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
  type QuestionRow,
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
    const { chain } = parseQuestion(q);
    if (q.status !== "pending") throw stale(q.id, q.status, holderLabel(q.holderId));
    if (q.holderId !== caller.agentId) {
      if (chain.includes(caller.agentId)) throw stale(q.id, "escalated past you", holderLabel(q.holderId));
      throw notHolder(q.id, holderLabel(q.holderId));
    }
    const moved = await passQuestionUp(u, q, { from: caller.agentId, reason: input.reason }, new Date());
    if (!moved) throw stale(q.id, "changed meanwhile", "unknown");
    return { ok: true as const, qid: q.id, new_holder: moved.next === null ? null : String(moved.next) };
  });
}

/**
 * Pass pending question `q`, held by agent `hop.from`, one hop up inside unit `u` at `now`: to the holder's
 * leader, skipping terminated ones, or to the owner at the top (`nextHolder`). The one path of an
 * escalation, whether the holder asks for it (`escalate_question`) or the watchdog does it for a holder that
 * does not react (`by: "watchdog"`, lib/domain/watchdog/question-ladder.ts). A conditional update on
 * (pending, held by `hop.from`): null when the question changed meanwhile. The new holder's watchdog ladder
 * starts afresh (`activityAt` = now, stage 0). `gateway_unavailable` when the next hop is the owner and the
 * gateway is off.
 */
export async function passQuestionUp(
  u: Unit,
  q: QuestionRow,
  hop: { from: number; reason: string; by?: "watchdog" },
  now: Date,
): Promise<{ next: number | null } | null> {
  const { chain, hops, questions } = parseQuestion(q);
  const next = await nextHolder(u, hop.from);
  if (next === null && !gatewayOn()) throw gatewayUnavailable();
  const newHops: Hop[] = [
    ...hops,
    {
      from: hop.from,
      to: next,
      reason: hop.reason,
      at: now.toISOString(),
      ...(hop.by ? { by: hop.by } : {}),
    },
  ];
  const { count } = await u.db.question.updateMany({
    where: { id: q.id, status: "pending", holderId: hop.from },
    data: {
      holderId: next,
      chainJson: JSON.stringify(next === null ? chain : [...chain, next]),
      hopsJson: JSON.stringify(newHops),
      activityAt: now,
      watchStage: 0,
      watchStageAt: null,
    },
  });
  if (count === 0) return null;
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
    agentId: hop.from,
    data: {
      qid: q.id,
      from: String(hop.from),
      to: holderLabel(next),
      reason: hop.reason,
      ...(hop.by ? { by: hop.by } : {}),
    },
  });
  notifyQuestion(u, q);
  return { next };
}
