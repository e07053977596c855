import type { Unit } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import {
  escalatedIdleAgents,
  idleAlertText,
  LEAVE_THEM,
  NUDGE_AGAIN,
  RESTART_THEM,
  TERMINATE_THEM,
} from "@/lib/domain/watchdog/idle-alert-card";
import { newId } from "@/lib/ids";
import type { SubQuestion } from "./schemas";
import { fingerprintOf, notifyQuestion } from "./store";
import {
  APPROVE,
  KEEP_PAUSED,
  KEEP_QUARANTINED,
  LIFT_QUARANTINE,
  RAISE_AND_RESUME,
  REWORK,
  TERMINATE_QUARANTINED,
} from "./system-answer";

export type SystemQuestion = {
  origin:
    | "root_review"
    | "review_escalation"
    | "termination_escalation"
    | "idle_escalation"
    | "quarantine"
    | "budget_alert"
    | "budget_paused";
  goalId: number;
  /** The agent the question is about (stored as the asker). */
  agentId: number;
  subjectLeaderId: number | null;
  /** root_review: the signal_review detail; escalations: the watchdog's prompt. */
  text: string;
};

const ROOT_REVIEW: SubQuestion[] = [
  {
    question:
      "The coordinator signalled that the goal is ready for review. Approve it, or send it back for rework?",
    header: "Review",
    multiSelect: false,
    options: [
      { label: APPROVE, description: "End the coordinator and complete the goal." },
      { label: REWORK, description: "Send it back with what to change (required).", requires_text: true },
    ],
  },
];

/** Issue 13: the owner's card when an agent is quarantined. */
const quarantineCard = (text: string): SubQuestion[] => [
  {
    question: text.slice(0, 2000),
    header: "Quarantine",
    multiSelect: false,
    options: [
      { label: LIFT_QUARANTINE, description: "Let it claim tasks again; its reputation is unchanged." },
      { label: KEEP_QUARANTINED, description: "Leave it quarantined (lift it later on the goal page)." },
      {
        label: TERMINATE_QUARANTINED,
        description: "End it now: a terminate sentinel to it and every agent under it; its plan task fails.",
      },
    ],
  },
];

/** issue 12: the pause notice offers the two decisions an owner makes (docs/budgets.md). */
const budgetPaused = (text: string): SubQuestion[] => [
  {
    question: text.slice(0, 2000),
    header: "Budget",
    multiSelect: false,
    options: [
      { label: KEEP_PAUSED, description: "Leave the goal paused; resume it later from the goal page." },
      {
        label: RAISE_AND_RESUME,
        description: "Type the new budget in dollars (e.g. 25 or 25.50); the goal resumes with it.",
        requires_text: true,
      },
    ],
  },
];

/**
 * Put a system question straight in front of the goal's owner (no leader chain), inside the caller's
 * write unit. A root review supersedes a pending one for the same agent (its context is replaced);
 * an identical pending escalation is not asked twice. Never throws for a well-formed call.
 */
export async function askOwnerDirectly(u: Unit, s: SystemQuestion): Promise<string> {
  if (s.origin === "idle_escalation") return idleAlert(u, s);
  const questions: SubQuestion[] =
    s.origin === "root_review"
      ? ROOT_REVIEW
      : s.origin === "quarantine"
        ? quarantineCard(s.text)
        : s.origin === "budget_paused"
          ? budgetPaused(s.text)
          : [
              {
                question: s.text.slice(0, 2000),
                header: s.origin === "budget_alert" ? "Budget" : "Watchdog",
                multiSelect: false,
                options: [],
              },
            ];
  const context = s.origin === "root_review" ? s.text : s.text.length > 2000 ? s.text : null;
  const fingerprint = fingerprintOf(questions, s.origin === "root_review" ? null : context);
  const now = new Date();
  const pending = await u.db.question.findFirst({
    where: {
      askerId: s.agentId,
      origin: s.origin,
      status: "pending",
      ...(s.origin === "root_review" ? {} : { fingerprint }),
    },
  });
  const goal = await u.db.goal.findUnique({ where: { id: s.goalId }, select: { ownerId: true } });
  const ownerId = goal?.ownerId ?? null;
  if (pending) {
    await u.db.question.update({ where: { id: pending.id }, data: { context, activityAt: now } });
    notifyQuestion(u, { id: pending.id, ownerId });
    return pending.id;
  }
  return createSystemQuestion(u, s, questions, context, fingerprint, ownerId);
}

/**
 * issue 16 §7: idle agents reach the owner as ONE card per goal (lib/domain/watchdog/idle-alert-card.ts): a
 * pending card is rewritten with the current list, else a new one is asked.
 */
async function idleAlert(u: Unit, s: SystemQuestion): Promise<string> {
  const agents = await escalatedIdleAgents(u, s.goalId);
  const questions: SubQuestion[] = [
    {
      // The listed agents (those whose ladder reached the owner); the escalation's own text when none is.
      question: (agents.length ? idleAlertText(agents) : s.text).slice(0, 2000),
      header: "Idle agents",
      multiSelect: false,
      options: [
        {
          label: NUDGE_AGAIN,
          description: "Each gets a message to carry on; the watchdog starts counting again.",
        },
        {
          label: RESTART_THEM,
          description: "Each runner-started agent is relaunched (its session resumes).",
        },
        {
          label: TERMINATE_THEM,
          description: "Each is ended (its task fails); the coordinator is never ended this way.",
        },
        { label: LEAVE_THEM, description: "Do nothing now; the card closes." },
      ],
    },
  ];
  const pending = await u.db.question.findFirst({
    where: { goalId: s.goalId, origin: s.origin, status: "pending" },
    select: { id: true, ownerId: true },
  });
  if (pending) {
    await u.db.question.update({
      where: { id: pending.id },
      data: { questionsJson: JSON.stringify(questions), activityAt: new Date() },
    });
    notifyQuestion(u, { id: pending.id, ownerId: pending.ownerId });
    return pending.id;
  }
  return createSystemQuestion(u, s, questions, null, fingerprintOf(questions, `idle:${s.goalId}`));
}

async function createSystemQuestion(
  u: Unit,
  s: SystemQuestion,
  questions: SubQuestion[],
  context: string | null,
  fingerprint: string,
  knownOwnerId?: number | null,
): Promise<string> {
  const ownerId =
    knownOwnerId !== undefined
      ? knownOwnerId
      : ((await u.db.goal.findUnique({ where: { id: s.goalId }, select: { ownerId: true } }))?.ownerId ??
        null);
  const id = newId("q");
  await u.db.question.create({
    data: {
      id,
      goalId: s.goalId,
      askerId: s.agentId,
      origin: s.origin,
      subjectLeaderId: s.subjectLeaderId,
      holderId: null,
      questionsJson: JSON.stringify(questions),
      context,
      fingerprint,
      ownerId,
    },
  });
  await appendEvent(u, {
    goalId: s.goalId,
    name: "question_asked",
    agentId: s.agentId,
    data: {
      qid: id,
      asker: "system",
      origin: s.origin,
      about: String(s.agentId),
      holder: USER_SENTINEL,
      questions: 1,
    },
  });
  notifyQuestion(u, { id, ownerId });
  return id;
}
