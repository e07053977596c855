import { read, type Unit, write } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { owned } from "@/lib/domain/goals/owned";
import { notHolder } from "./answer-question";
import { checkAnswers } from "./render";
import { resolveQuestion } from "./resolve";
import type { AnswerEntry, AnswerOut, SubQuestion } from "./schemas";
import { agentNames, holderLabel, parseQuestion, type QuestionRow, unknownQid } from "./store";

export type QuestionView = {
  qid: string;
  goal_id: number;
  goal_title: string;
  origin: string;
  status: string;
  asker: { agent_id: string; name: string | null };
  holder: string;
  holder_name: string | null;
  chain: { agent_id: string; name: string | null }[];
  hops: {
    from: string;
    from_name: string | null;
    to: string;
    to_name: string | null;
    reason: string;
    at: string;
  }[];
  questions: SubQuestion[];
  context: string | null;
  answers: AnswerOut[] | null;
  answer_text: string | null;
  answered_by: string | null;
  answered_by_name: string | null;
  decline_reason: string | null;
  created_at: string;
  activity_at: string;
  answered_at: string | null;
};

export type QuestionStatusFilter = "pending" | "in_chain" | "answered" | "declined" | "closed" | "all";

async function views(rows: (QuestionRow & { goal: { title: string } })[]): Promise<QuestionView[]> {
  const parsed = rows.map((q) => ({ q, ...parseQuestion(q) }));
  const answerer = (q: QuestionRow) =>
    q.answeredBy && /^\d+$/.test(q.answeredBy) ? Number(q.answeredBy) : null;
  const ids = parsed.flatMap(({ q, chain, hops }) => [
    q.askerId,
    ...chain,
    ...hops.flatMap((h) => (h.to === null ? [h.from] : [h.from, h.to])),
    ...(answerer(q) === null ? [] : [answerer(q) as number]),
  ]);
  const names = await read((u) => agentNames(u, ids));
  const name = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  return parsed.map(({ q, chain, hops, questions, answers }) => ({
    qid: q.id,
    goal_id: q.goalId,
    goal_title: q.goal.title,
    origin: q.origin,
    status: q.status,
    asker: { agent_id: String(q.askerId), name: name(q.askerId) },
    holder: holderLabel(q.holderId),
    holder_name: name(q.holderId),
    chain: chain.map((id) => ({ agent_id: String(id), name: name(id) })),
    hops: hops.map((h) => ({
      from: String(h.from),
      from_name: name(h.from),
      to: h.to === null ? USER_SENTINEL : String(h.to),
      to_name: name(h.to),
      reason: h.reason,
      at: h.at,
    })),
    questions,
    context: q.context,
    answers,
    answer_text: q.answerText,
    answered_by: q.answeredBy,
    answered_by_name: name(answerer(q)),
    decline_reason: q.declineReason,
    created_at: q.createdAt.toISOString(),
    activity_at: q.activityAt.toISOString(),
    answered_at: q.answeredAt?.toISOString() ?? null,
  }));
}

/**
 * "Waiting for the owner", the one rule: a pending question of the owner's goals that no agent holds
 * (the human gateway holds it). The inbox list, its badge count and its live feed all select with it.
 */
export const waitingForOwner = (ownerId: number) => ({ ownerId, status: "pending", holderId: null }) as const;

/** Kinds of question the owner can filter by, each a set of origins (lib/domain/questions/system-question.ts). */
export const QUESTION_KINDS = {
  agent: ["agent"],
  review: ["root_review", "review_escalation", "termination_escalation"],
  watchdog: ["idle_escalation"],
  quarantine: ["quarantine"],
  budget: ["budget_alert", "budget_paused"],
} as const;
export type QuestionKind = keyof typeof QUESTION_KINDS;

export type OwnerQuestionFilter = {
  status?: QuestionStatusFilter;
  goalId?: number;
  kind?: QuestionKind;
};

/** The one `where` of the owner's lists and their counts, so a list and its count always agree. */
function ownerQuestionsWhere(ownerId: number, f: OwnerQuestionFilter) {
  const status = f.status ?? "pending";
  return {
    ownerId,
    ...(f.goalId !== undefined ? { goalId: f.goalId } : {}),
    ...(f.kind !== undefined ? { origin: { in: [...QUESTION_KINDS[f.kind]] } } : {}),
    ...(status === "pending" ? waitingForOwner(ownerId) : {}),
    ...(status === "in_chain" ? { status: "pending", holderId: { not: null } } : {}),
    ...(status === "answered" || status === "declined" ? { status } : {}),
    ...(status === "closed" ? { status: { in: ["answered", "declined"] } } : {}),
  };
}

/**
 * The owner's questions, newest activity first. `pending` means waiting for the owner (the human
 * gateway holds it); `in_chain` pending with an agent of the chain; `closed` is the history (answered or
 * declined). An owner sees only their goals. Paged with `offset`/`limit` (at most 500 a page).
 */
export async function listOwnerQuestions(
  ownerId: number,
  opts: OwnerQuestionFilter & { limit?: number; offset?: number } = {},
): Promise<QuestionView[]> {
  const rows = await read(({ db }) =>
    db.question.findMany({
      where: ownerQuestionsWhere(ownerId, opts),
      orderBy: [{ activityAt: "desc" }, { createdAt: "desc" }, { id: "asc" }],
      take: Math.min(opts.limit ?? 200, 500),
      skip: opts.offset ?? 0,
      include: { goal: { select: { title: true } } },
    }),
  );
  return views(rows as (QuestionRow & { goal: { title: string } })[]);
}

/** How many of the owner's questions match (the same filter as the list). */
export async function countOwnerQuestions(ownerId: number, f: OwnerQuestionFilter = {}): Promise<number> {
  return read(({ db }) => db.question.count({ where: ownerQuestionsWhere(ownerId, f) }));
}

/** Pending questions waiting for this owner (the unread badge): the inbox's unfiltered count. */
export const countOwnerPending = (ownerId: number) => countOwnerQuestions(ownerId, { status: "pending" });

/** Waiting-for-the-owner counts per goal and per kind, for the inbox's filters (one grouped read). */
export async function ownerPendingFacets(ownerId: number) {
  const { rows, goals } = await read(async ({ db }) => {
    const rows = await db.question.groupBy({
      by: ["goalId", "origin"],
      where: waitingForOwner(ownerId),
      _count: { _all: true },
    });
    const goals = await db.goal.findMany({
      where: { ownerId, id: { in: [...new Set(rows.map((r) => r.goalId))] } },
      select: { id: true, title: true },
      orderBy: { id: "desc" },
    });
    return { rows, goals };
  });
  const byGoal = new Map<number, number>();
  const byKind = new Map<QuestionKind, number>();
  for (const r of rows) {
    byGoal.set(r.goalId, (byGoal.get(r.goalId) ?? 0) + r._count._all);
    const kind = (Object.keys(QUESTION_KINDS) as QuestionKind[]).find((k) =>
      (QUESTION_KINDS[k] as readonly string[]).includes(r.origin),
    );
    if (kind) byKind.set(kind, (byKind.get(kind) ?? 0) + r._count._all);
  }
  return {
    goals: goals.map((g) => ({ id: g.id, title: g.title, pending: byGoal.get(g.id) ?? 0 })),
    byKind,
  };
}

/**
 * A cheap fingerprint of the owner's questions for the live feed: the ids waiting for the owner and the
 * latest activity on any of them, so it changes whenever one is asked, moved or closed.
 */
export async function ownerQuestionsStamp(ownerId: number) {
  return read(async ({ db }) => {
    const rows = await db.question.findMany({
      where: waitingForOwner(ownerId),
      select: { id: true },
      orderBy: { activityAt: "desc" },
      take: 500,
    });
    // The count is the badge's own (the id list stops at 500: it only tells new questions apart).
    const count =
      rows.length < 500 ? rows.length : await db.question.count({ where: waitingForOwner(ownerId) });
    const latest = await db.question.findFirst({
      where: { ownerId },
      orderBy: { activityAt: "desc" },
      select: { activityAt: true },
    });
    return { pending: rows.map((r) => r.id), count, latest: latest?.activityAt.toISOString() ?? null };
  });
}

/** One question of this owner; another owner's is indistinguishable from none (`unknown_qid`). */
export async function getOwnerQuestion(ownerId: number, qid: string): Promise<QuestionView> {
  const row = owned(
    await read(({ db }) =>
      db.question.findUnique({ where: { id: qid }, include: { goal: { select: { title: true } } } }),
    ),
    (q) => q.ownerId,
    ownerId,
    () => unknownQid(qid),
  );
  const [view] = await views([row as QuestionRow & { goal: { title: string } }]);
  if (!view) throw unknownQid(qid);
  return view;
}

async function ownerHeld(u: Unit, ownerId: number, qid: string) {
  const row = (await u.db.question.findUnique({ where: { id: qid } })) as QuestionRow | null;
  const q = owned(
    row,
    (x) => x.ownerId,
    ownerId,
    () => unknownQid(qid),
  );
  if (q.status !== "pending") throw unknownQid(qid, q.status);
  if (q.holderId !== null) throw notHolder(qid, holderLabel(q.holderId));
  return q;
}

/** The owner answers a question that reached them (browser or REST). Same rules as answer_question. */
export async function answerAsOwner(ownerId: number, qid: string, answers: AnswerEntry[]) {
  return write(async (u) => {
    const q = await ownerHeld(u, ownerId, qid);
    const checked = checkAnswers(parseQuestion(q).questions, answers);
    await resolveQuestion(u, q, null, { kind: "answered", answers: checked, by: USER_SENTINEL });
    return { ok: true as const, qid };
  });
}

/** The owner refuses to answer: the asker's ask_user fails with `user_declined` and the reason. */
export async function declineAsOwner(ownerId: number, qid: string, reason: string) {
  return write(async (u) => {
    const q = await ownerHeld(u, ownerId, qid);
    await resolveQuestion(u, q, null, { kind: "declined", reason, by: USER_SENTINEL });
    return { ok: true as const, qid };
  });
}
