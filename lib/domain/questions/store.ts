import { createHash } from "node:crypto";
import type { ReadUnit, Unit } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import type { AnswerOut, SubQuestion } from "./schemas";

/**
 * A hop of the chain: who passed the question on, to whom (null = the owner), and why; `by: "watchdog"` when
 * the watchdog passed it on for a holder that did not react (lib/domain/watchdog/question-ladder.ts).
 */
export type Hop = { from: number; to: number | null; reason: string; at: string; by?: "watchdog" };

export type QuestionRow = {
  id: string;
  goalId: number;
  askerId: number;
  chainJson: string;
  holderId: number | null;
  status: string;
  questionsJson: string;
  context: string | null;
  fingerprint: string;
  answersJson: string | null;
  answerText: string | null;
  answeredBy: string | null;
  declineReason: string | null;
  createdAt: Date;
  origin: string;
  subjectLeaderId: number | null;
  hopsJson: string;
  ownerId: number | null;
  answeredAt: Date | null;
  activityAt: Date;
};

/** Identical questions (same sub-questions and context) from one asker share a fingerprint. */
export function fingerprintOf(questions: SubQuestion[], context: string | undefined | null): string {
  return createHash("sha256")
    .update(JSON.stringify({ questions, context: context ?? null }))
    .digest("hex");
}

export const gatewayOn = () => env().SWITCHBOARD_HUMAN_GATEWAY !== "off";

export const gatewayUnavailable = () =>
  new DomainError(
    "gateway_unavailable",
    "No human gateway is registered: this hub runs with it switched off.",
  );

export const unknownQid = (qid: string, status?: string) =>
  new DomainError("unknown_qid", `No pending question ${qid}.`, {
    details: status ? { qid, status } : { qid },
  });

/** The question `qid` of the caller's goal, pending or not; `unknown_qid` when there is none. */
export async function questionInGoal(u: ReadUnit, qid: string, goalId: number): Promise<QuestionRow> {
  const q = (await u.db.question.findUnique({ where: { id: qid } })) as QuestionRow | null;
  if (!q || q.goalId !== goalId) throw unknownQid(qid);
  return q;
}

/** Topics to wake when a question changes: its own waiters, and the owner's live inbox. */
export function notifyQuestion(u: Unit, q: { id: string; ownerId: number | null }): void {
  u.notify(`question:${q.id}`);
  if (q.ownerId !== null) u.notify(`owner:${q.ownerId}`);
}

/**
 * The next holder above `agentId`: its leader, skipping leaders that have terminated (their inbox is
 * closed). null = the owner (the user sentinel).
 */
export async function nextHolder(u: ReadUnit, agentId: number): Promise<number | null> {
  let current: number | null = agentId;
  for (let hops = 0; current !== null && hops < 64; hops++) {
    const a: { leaderId: number | null } | null = await u.db.agent.findUnique({
      where: { id: current },
      select: { leaderId: true },
    });
    const leaderId: number | null = a?.leaderId ?? null;
    if (leaderId === null) return null;
    const leader = await u.db.agent.findUnique({
      where: { id: leaderId },
      select: { status: true, terminateConsumed: true },
    });
    if (leader && !isTerminated(leader)) return leaderId;
    current = leaderId;
  }
  return null;
}

export const holderLabel = (holderId: number | null) =>
  holderId === null ? USER_SENTINEL : String(holderId);

export function parseQuestion(q: QuestionRow) {
  return {
    questions: JSON.parse(q.questionsJson) as SubQuestion[],
    chain: JSON.parse(q.chainJson) as number[],
    hops: JSON.parse(q.hopsJson) as Hop[],
    answers: q.answersJson ? (JSON.parse(q.answersJson) as AnswerOut[]) : null,
  };
}

/** The `[INBOX QUESTION]` system message a holder receives. */
export function inboxQuestionText(
  q: QuestionRow,
  names: Map<number, string>,
  hops: Hop[],
  questions: SubQuestion[],
): string {
  const who = (id: number) => `${names.get(id) ?? "agent"} (agent ${id})`;
  const lines = [
    `[INBOX QUESTION] qid=${q.id}`,
    `Asked by ${who(q.askerId)}.`,
    ...hops.map((h) =>
      h.by === "watchdog"
        ? `Passed on by the watchdog (no answer from ${who(h.from)}): ${h.reason}`
        : `Passed on by ${who(h.from)}: ${h.reason}`,
    ),
    "Answer it with answer_question(qid, answers, reason) if you can decide, or pass it one hop up with escalate_question(qid, reason). The asker is blocked until it is answered.",
  ];
  if (q.context) lines.push("", `Context: ${q.context}`);
  questions.forEach((sq, i) => {
    const kind = sq.options.length === 0 ? "free text" : sq.multiSelect ? "multi-select" : "single-select";
    lines.push("", `${i + 1}. ${sq.header ? `[${sq.header}] ` : ""}${sq.question} (${kind})`);
    for (const o of sq.options) {
      lines.push(`   - ${o.label}: ${o.description}${o.requires_text ? " (requires text)" : ""}`);
    }
  });
  return lines.join("\n");
}

export async function agentNames(u: ReadUnit, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await u.db.agent.findMany({ where: { id: { in: unique } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}
