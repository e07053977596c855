import type { Unit } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { NOTIFY_TOPIC, type NotificationKind } from "./kinds";

/**
 * Turn an owner-facing event into a notification, inside the event's own unit of work (called by
 * appendEvent): the notification commits with the event or not at all, so nothing that happened is lost
 * between the event and the outbox, whatever crashes after. Only a handful of event names qualify; every
 * other event costs one Set lookup. The worker (lib/jobs/notifications.ts) fans it out after commit.
 */
const WATCHED = new Set([
  "question_asked",
  "question_escalated",
  "task_tree_proposed",
  "agent_proposed",
  "resource_requested",
  "agent_crashed",
  "goal_completed",
  "status",
]);

const SYSTEM_ORIGIN: Record<string, NotificationKind> = {
  root_review: "review",
  review_escalation: "escalation",
  termination_escalation: "escalation",
  idle_escalation: "escalation",
  quarantine: "quarantine",
  budget_alert: "budget",
  budget_paused: "budget",
};

type Captured = { kind: NotificationKind; summary: string; link: string; data: Record<string, unknown> };

export type CapturedEvent = {
  goalId: number;
  seq: number;
  name: string;
  agentId?: number | null;
  data?: Record<string, unknown>;
};

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// SQL here: this runs inside appendEvent, a hot path (docs/database.md, rule 1).
async function questionSummary(u: Unit, qid: string): Promise<string> {
  const row = await u.sql.get<{ questionsJson: string }>(
    `SELECT "questionsJson" FROM "Question" WHERE id = ?`,
    qid,
  );
  try {
    const qs = JSON.parse(row?.questionsJson ?? "[]") as { question: string }[];
    const first = qs[0]?.question ?? "A question";
    return clip(qs.length > 1 ? `${first} (+${qs.length - 1} more)` : first);
  } catch {
    return "A question";
  }
}

async function classify(u: Unit, e: CapturedEvent): Promise<Captured | undefined> {
  const d = e.data ?? {};
  const qlink = (qid: string) => `/questions?qid=${encodeURIComponent(qid)}#question-${qid}`;
  switch (e.name) {
    case "question_asked":
    case "question_escalated": {
      const toOwner = e.name === "question_asked" ? d.holder === USER_SENTINEL : d.to === USER_SENTINEL;
      if (!toOwner || typeof d.qid !== "string") return undefined;
      const kind = typeof d.origin === "string" ? (SYSTEM_ORIGIN[d.origin] ?? "question") : "question";
      return { kind, summary: await questionSummary(u, d.qid), link: qlink(d.qid), data: { qid: d.qid } };
    }
    case "task_tree_proposed":
      return {
        kind: "approval",
        summary: `A task tree of ${Number(d.tasks ?? 0)} task(s) awaits your approval.`,
        link: "/approvals",
        data: { proposal_message_id: d.proposal_message_id, proposal_kind: "task_tree" },
      };
    case "agent_proposed":
      return {
        kind: "approval",
        summary: clip(`A new agent "${String(d.name ?? "")}" awaits your approval.`),
        link: "/approvals",
        data: { proposal_message_id: d.approval_message_id, proposal_kind: "agent" },
      };
    case "resource_requested":
      return {
        kind: "secret_request",
        summary: clip(`An agent asks for ${String(d.name ?? "a value")} (${String(d.resource_type ?? "")}).`),
        link: "/requests",
        data: { request_id: d.request_id, name: d.name },
      };
    case "agent_crashed":
      // Only the crash after which the agent is not restarted (the others restart on their own).
      if (d.restart_in_ms !== null) return undefined;
      return {
        kind: "crash",
        summary: clip(
          `Agent #${e.agentId ?? "?"} crashed ${Number(d.crashes_in_a_row ?? 1)} time(s) in a row and is not restarted${d.error ? `: ${String(d.error)}` : "."}`,
        ),
        link: `/goals/${e.goalId}`,
        data: { exit_code: d.exit_code ?? null },
      };
    case "goal_completed":
      return {
        kind: "goal_completed",
        summary: "The goal is completed.",
        link: `/goals/${e.goalId}`,
        data: {},
      };
    case "status":
      if (d.to !== "stuck") return undefined;
      return { kind: "goal_stuck", summary: "The goal is stuck.", link: `/goals/${e.goalId}`, data: {} };
  }
  return undefined;
}

/** Whether an event of this name may become a notification (appendEvent captures it). */
export const notifies = (name: string) => WATCHED.has(name);

export async function captureEvent(u: Unit, e: CapturedEvent): Promise<void> {
  if (!WATCHED.has(e.name)) return;
  const c = await classify(u, e);
  if (!c) return;
  const goal = await u.sql.get<{ ownerId: number }>(`SELECT "ownerId" FROM "Goal" WHERE id = ?`, e.goalId);
  if (!goal) return;
  await u.db.notification.create({
    data: {
      ownerId: goal.ownerId,
      goalId: e.goalId,
      eventSeq: e.seq,
      kind: c.kind,
      summary: c.summary,
      link: c.link,
      dataJson: JSON.stringify({ ...c.data, agent_id: e.agentId ?? null, event: e.name }),
    },
    select: { id: true },
  });
  u.notify(NOTIFY_TOPIC);
}
