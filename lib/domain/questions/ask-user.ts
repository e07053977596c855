import { waitFor } from "@/lib/bus";
import { read, type Unit, write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { AnswerOut, AskUserInput, SubQuestion } from "./schemas";
import {
  agentNames,
  fingerprintOf,
  gatewayOn,
  gatewayUnavailable,
  holderLabel,
  inboxQuestionText,
  nextHolder,
  notifyQuestion,
  type QuestionRow,
} from "./store";

type Asker = { agentId: number; goalId: number };

/**
 * Serialize question creation per asker on PostgreSQL (SQLite write units are serialized already).
 * Hand-written SQL: an advisory lock is a statement Prisma cannot make (docs/database.md, rule 2).
 */
export async function lockAsker(u: Unit, agentId: number) {
  if (u.sql.postgres)
    await u.sql.get(`SELECT pg_advisory_xact_lock(?::int, ?::int)::text AS locked`, 4_004_004, agentId);
}

/**
 * Put a new question in its holder's inbox (or in front of the owner) and record `question_asked`.
 * `origin` other than `agent` marks a system question that climbs the leader chain like an agent's
 * (the autonomy gate's approval requests, lib/domain/agents/autonomy.ts); its answer is acted on in
 * system-answer.ts instead of being returned to a blocked call.
 */
export async function createQuestion(
  u: Unit,
  asker: Asker,
  input: AskUserInput,
  fingerprint: string,
  origin = "agent",
) {
  const goal = await u.db.goal.findUnique({ where: { id: asker.goalId }, select: { ownerId: true } });
  const holderId = await nextHolder(u, asker.agentId);
  if (holderId === null && !gatewayOn()) throw gatewayUnavailable();
  const q = (await u.db.question.create({
    data: {
      id: newId("q"),
      goalId: asker.goalId,
      askerId: asker.agentId,
      chainJson: JSON.stringify(holderId === null ? [] : [holderId]),
      holderId,
      questionsJson: JSON.stringify(input.questions),
      context: input.context ?? null,
      fingerprint,
      ownerId: goal?.ownerId ?? null,
      origin,
    },
  })) as QuestionRow;
  if (holderId !== null) {
    const names = await agentNames(u, [asker.agentId]);
    await insertMessage(u, {
      goalId: asker.goalId,
      recipientAgentId: holderId,
      sender: { kind: "system" },
      kind: "question",
      content: inboxQuestionText(q, names, [], input.questions),
      meta: { qid: q.id },
    });
  }
  await appendEvent(u, {
    goalId: asker.goalId,
    name: "question_asked",
    agentId: asker.agentId,
    data: {
      qid: q.id,
      asker: String(asker.agentId),
      holder: holderLabel(holderId),
      ...(origin === "agent" ? {} : { origin }),
      questions: input.questions.length,
      headers: input.questions.map((s: SubQuestion) => s.header),
    },
  });
  notifyQuestion(u, q);
  return q.id;
}

/**
 * Find the asker's pending identical question (re-attach after a dropped call) or create it.
 * `gateway_unavailable` when it would go straight to the owner and the gateway is off.
 */
export async function openQuestion(
  asker: Asker,
  input: AskUserInput,
): Promise<{ qid: string; reattached: boolean }> {
  const fingerprint = fingerprintOf(input.questions, input.context);
  return write(async (u) => {
    await lockAsker(u, asker.agentId);
    const existing = await u.db.question.findFirst({
      where: { askerId: asker.agentId, fingerprint, status: "pending", origin: "agent" },
      select: { id: true },
    });
    if (existing) return { qid: existing.id, reattached: true };
    const open = await u.db.question.count({ where: { askerId: asker.agentId, status: "pending" } });
    const max = env().SWITCHBOARD_MAX_OPEN_QUESTIONS;
    if (open >= max) {
      throw new DomainError(
        "too_many_questions",
        `You have ${open} questions open already (at most ${max}).`,
        {
          details: { max, open },
        },
      );
    }
    return { qid: await createQuestion(u, asker, input, fingerprint), reattached: false };
  });
}

type Closed = {
  status: string;
  answersJson: string | null;
  answerText: string | null;
  declineReason: string | null;
};

/**
 * `ask_user`: route the question up the leader chain and block until it is answered — no timeout. The
 * call is woken by the bus (`question:<qid>`, any instance) and re-checks the database every second.
 * The answer also lands in the asker's inbox (kind `question_answer`), always: a returned call is no
 * proof that the agent received it, and delivery is at-least-once.
 */
export async function askUser(
  asker: Asker,
  input: AskUserInput,
  opts: { signal?: AbortSignal; onProgress?: (elapsedMs: number) => void } = {},
): Promise<{ answers: AnswerOut[]; answer_text: string }> {
  const { qid } = await openQuestion(asker, input);
  const closed = await waitFor<Closed>({
    topics: [`question:${qid}`],
    timeoutMs: Number.MAX_SAFE_INTEGER,
    recheckMs: 1000,
    signal: opts.signal,
    tickMs: env().SWITCHBOARD_PROGRESS_EVERY_S * 1000,
    onTick: opts.onProgress,
    // Hand-written SQL: every blocked ask_user runs this once a second (a hot path, docs/database.md).
    check: async () => {
      const q = await read(({ sql }) =>
        sql.get<Closed>(
          `SELECT status, "answersJson", "answerText", "declineReason" FROM "Question" WHERE id = ?`,
          qid,
        ),
      );
      return q && q.status !== "pending" ? q : undefined;
    },
  });
  if (!closed) {
    throw new DomainError("cancelled", `The call was cancelled; question ${qid} is still pending.`, {
      details: { qid },
    });
  }
  if (closed.status === "declined") {
    throw new DomainError("user_declined", `The owner declined to answer: ${closed.declineReason ?? ""}`, {
      details: { qid, reason: closed.declineReason },
    });
  }
  return {
    answers: JSON.parse(closed.answersJson ?? "[]") as AnswerOut[],
    answer_text: closed.answerText ?? "",
  };
}
