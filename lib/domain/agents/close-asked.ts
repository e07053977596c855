import type { Unit } from "@/lib/db";
import { AUTONOMY_ORIGIN } from "@/lib/domain/agents/autonomy";
import { appendEvent } from "@/lib/domain/events/append-event";
import { resolveQuestion } from "@/lib/domain/questions/resolve";
import type { QuestionRow } from "@/lib/domain/questions/store";

/**
 * The questions about an agent that its end makes moot: its own `ask_user`, its autonomy-gate requests, and
 * the owner's cards about it (quarantine, the watchdog's review and termination escalations). Not the
 * goal's cards that merely name it as their asker (budget alert and pause, the idle card of the goal, the
 * root review): those stay for the owner. A function, not a constant: this module sits in an import cycle
 * with autonomy.ts (through the terminate path), so its exports are read at call time.
 */
const mootOrigins = () => [
  "agent",
  AUTONOMY_ORIGIN,
  "quarantine",
  "review_escalation",
  "termination_escalation",
];

/**
 * An agent is being terminated: what it is still waiting on is moot, so nobody should be asked to decide
 * it. Inside the terminating unit: its pending questions of `mootOrigins()` are declined with `reason`,
 * wherever they are held; its pending proposals (agent or task tree) are rejected with `reason`, an event each.
 * The asker's inbox is closed, so the usual answer messages are harmless and unread.
 * Returns how many of each it closed.
 */
export async function closeWhatItAsked(
  u: Unit,
  agent: { id: number; goalId: number },
  reason: string,
): Promise<{ questions: number; proposals: number }> {
  const questions = await u.db.question.findMany({
    where: { askerId: agent.id, status: "pending", origin: { in: mootOrigins() } },
    orderBy: { id: "asc" },
  });
  for (const q of questions) {
    await resolveQuestion(u, q as QuestionRow, q.holderId, { kind: "declined", reason, by: "system" });
  }
  const proposals = await u.db.proposal.findMany({
    where: { proposerId: agent.id, status: "pending" },
    select: { id: true, kind: true, messageId: true },
    orderBy: { id: "asc" },
  });
  for (const p of proposals) {
    const closed = await u.db.proposal.updateMany({
      where: { id: p.id, status: "pending" },
      data: { status: "rejected", reason, decidedAt: new Date() },
    });
    if (closed.count === 0) continue;
    await appendEvent(u, {
      goalId: agent.goalId,
      name: p.kind === "agent" ? "agent_proposal_rejected" : "task_tree_rejected",
      agentId: agent.id,
      data: { proposal_id: p.id, proposal_message_id: p.messageId, reason, by: "system" },
    });
  }
  return { questions: questions.length, proposals: proposals.length };
}
