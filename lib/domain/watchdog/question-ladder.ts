import type { ReadUnit, Unit } from "@/lib/db";
import { type SqlBool, type SqlDate, toDate } from "@/lib/db/rows";
import { AUTONOMY_ORIGIN } from "@/lib/domain/agents/autonomy";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { passQuestionUp } from "@/lib/domain/questions/escalate-question";
import { agentNames, nextHolder, type QuestionRow } from "@/lib/domain/questions/store";
import { isDomainError } from "@/lib/errors";
import { due, type Step } from "./ladders";
import type { WatchdogTimings } from "./timings";

/**
 * The watchdog's ladder for questions held by an agent (`ask_user` questions, and the autonomy gate's
 * approval requests) that the holder neither answers nor passes on. Questions held by the owner (holder
 * null) are not chased.
 *
 *   no activity on the question (`activityAt`) for questionPingS → ping #1 to the holder;
 *   questionPingS later → ping #2 ("will escalate to … in ~N s");
 *   questionPingS later → passed one hop up, as the holder's `escalate_question` would (`passQuestionUp`:
 *     its leader, skipping terminated ones, or the owner at the top), event `question_escalated` with
 *     `by: "watchdog"`; the new holder's ladder starts afresh, so it repeats at each level up to the owner;
 *   holder terminated, or being terminated (a terminate sentinel posted) → passed up at once, no pings.
 *
 * The stage lives on the question (`watchStage`, `watchStageAt`); every ping is a conditional update of it
 * (and of the holder), every escalation the conditional update of the holder, so two overlapping passes or
 * two instances never take a step twice. Activity on the question after the last step restarts the ladder.
 * With the human gateway off, a question whose next hop is the owner stays at ping #2.
 */
export type HeldQuestion = {
  id: string;
  goalId: number;
  askerId: number;
  askerName: string | null;
  holderId: number;
  origin: string;
  activityAt: Date;
  watchStage: number;
  watchStageAt: Date | null;
  /** The holder has terminated, is being terminated, or is gone: it will not answer. */
  holderGone: boolean;
};

/** A row of the scan: the question's own columns as read, and its holder's state. */
type Row = Omit<HeldQuestion, "activityAt" | "watchStageAt" | "holderGone"> & {
  activityAt: SqlDate;
  watchStageAt: SqlDate | null;
  holderStatus: string | null;
  holderConsumed: SqlBool | null;
  holderTerminatePostedAt: SqlDate | null;
};

/**
 * Every pending question held by an agent, in goals still under way, with its holder's state. Hand-written
 * SQL: part of the watchdog scan, a read across tables (docs/database.md); the steps use Prisma.
 */
export async function heldQuestions(u: ReadUnit): Promise<HeldQuestion[]> {
  const rows = await u.sql.all<Row>(
    `SELECT q.id, q."goalId", q."askerId", k.name AS "askerName", q."holderId", q.origin, q."activityAt",
            q."watchStage", q."watchStageAt", h.status AS "holderStatus",
            h."terminateConsumed" AS "holderConsumed", h."terminatePostedAt" AS "holderTerminatePostedAt"
     FROM "Question" q JOIN "Goal" g ON g.id = q."goalId"
       LEFT JOIN "Agent" h ON h.id = q."holderId"
       LEFT JOIN "Agent" k ON k.id = q."askerId"
     WHERE q.status = 'pending' AND q."holderId" IS NOT NULL AND g.status NOT IN ('completed', 'cancelled')`,
  );
  return rows.map(
    ({ activityAt, watchStageAt, holderStatus, holderConsumed, holderTerminatePostedAt, ...q }) => ({
      ...q,
      activityAt: toDate(activityAt),
      watchStageAt: watchStageAt === null ? null : toDate(watchStageAt),
      holderGone:
        holderStatus === null ||
        isTerminated({ status: holderStatus, terminateConsumed: holderConsumed ?? false }) ||
        holderTerminatePostedAt !== null,
    }),
  );
}

/** Pass `q` one hop up for the watchdog; false when it changed meanwhile (or the gateway is off at the top). */
async function escalate(u: Unit, q: HeldQuestion, reason: string, now: Date): Promise<boolean> {
  const row = (await u.db.question.findUnique({ where: { id: q.id } })) as QuestionRow | null;
  if (row?.status !== "pending" || row.holderId !== q.holderId) return false;
  try {
    return (await passQuestionUp(u, row, { from: q.holderId, reason, by: "watchdog" }, now)) !== null;
  } catch (e) {
    // Nothing was written before the gateway check: the question waits at ping #2 for a gateway.
    if (isDomainError(e) && e.code === "gateway_unavailable") return false;
    throw e;
  }
}

/** The step of question `q`'s ladder due at `now`, if any. */
export function questionStep(q: HeldQuestion, now: Date, t: WatchdogTimings): Step | undefined {
  if (q.holderGone) {
    return (u) => escalate(u, q, "the holder has terminated (or is being terminated) and cannot answer", now);
  }
  const activity = q.activityAt.getTime();
  const stageAt = q.watchStageAt?.getTime() ?? 0;
  // Activity after the last step restarts the ladder.
  const stage = q.watchStage > 0 && activity > stageAt ? 0 : q.watchStage;
  const p = t.questionPingS;
  const next = due(stage, activity, stageAt, now, p, p);
  if (!next) return undefined;
  const waited = Math.round((now.getTime() - activity) / 1000);
  if (next === 3) {
    return (u) =>
      escalate(
        u,
        q,
        `neither answered nor passed on after two reminders (${waited} s without activity)`,
        now,
      );
  }
  return async (u: Unit) => {
    const { count } = await u.db.question.updateMany({
      where: { id: q.id, status: "pending", holderId: q.holderId, watchStage: q.watchStage },
      data: { watchStage: next, watchStageAt: now },
    });
    if (count === 0) return false;
    const up = await nextHolder(u, q.holderId);
    const names = await agentNames(u, up === null ? [] : [up]);
    const target = up === null ? "the owner" : `${names.get(up) ?? "agent"} (agent ${up}), above you`;
    const what = q.origin === AUTONOMY_ORIGIN ? "Approval request" : "Question";
    const asker = `${q.askerName ?? "agent"} (agent ${q.askerId})`;
    const tail =
      next === 1
        ? `If you neither answer nor pass it on, it will be escalated to ${target}.`
        : `This is ping #2: it will be escalated to ${target} in ~${p} s.`;
    await insertMessage(u, {
      goalId: q.goalId,
      recipientAgentId: q.holderId,
      sender: { kind: "system" },
      kind: "watchdog",
      content: `[WATCHDOG] ${what} qid=${q.id} from ${asker} has waited ${waited} s for you; the asker is blocked. Answer it with answer_question(qid="${q.id}", answers, reason) or pass it up with escalate_question(qid="${q.id}", reason). ${tail}`,
      meta: { ping: next, qid: q.id, about: "question" },
    });
    await appendEvent(u, {
      goalId: q.goalId,
      name: "watchdog.question_ping",
      agentId: q.holderId,
      data: { ping: next, qid: q.id, asker: String(q.askerId) },
    });
    return true;
  };
}
