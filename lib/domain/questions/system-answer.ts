import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import type { Resolution } from "./resolve";
import type { QuestionRow } from "./store";

export const APPROVE = "Approve";
export const REWORK = "Rework";

/**
 * What the owner's answer to a system question does (docs/questions.md):
 * - root_review, Approve: the coordinator ends (status terminated, a `terminate` sentinel in its inbox,
 *   event `status`) and the goal completes (`goal_completed`).
 * - root_review, Rework: `rework: <text>` as a system message to the coordinator; its review is cleared.
 * - watchdog escalations: the owner's text goes as a system message to the leader concerned (or to the
 *   agent itself when the owner is its leader).
 * - declined: the agent the question is about is told the owner declined, with the reason.
 */
export async function onSystemQuestionClosed(u: Unit, q: QuestionRow, r: Resolution): Promise<void> {
  const agentId = q.askerId;
  const tell = (recipientAgentId: number, content: string, kind = "system") =>
    insertMessage(u, { goalId: q.goalId, recipientAgentId, sender: { kind: "system" }, kind, content });
  if (r.kind === "declined") {
    await tell(agentId, `The owner declined to answer the ${q.origin.replace("_", " ")}: ${r.reason}`);
    return;
  }
  const first = r.answers[0];
  if (q.origin === "root_review") {
    const now = new Date();
    if (first?.selected_labels[0] === APPROVE) {
      await u.db.agent.update({
        where: { id: agentId },
        data: { status: "terminated", reviewPending: false, reviewPendingAt: null },
      });
      await tell(agentId, "terminate: the owner approved your review; the goal is complete.", "terminate");
      await appendEvent(u, {
        goalId: q.goalId,
        name: "status",
        agentId,
        data: { state: "terminated", reason: "owner_approved", qid: q.id },
      });
      await u.db.goal.update({ where: { id: q.goalId }, data: { status: "completed", lastActivityAt: now } });
      await appendEvent(u, { goalId: q.goalId, name: "goal_completed", agentId, data: { qid: q.id } });
    } else {
      await u.db.agent.update({
        where: { id: agentId },
        data: { reviewPending: false, reviewPendingAt: null },
      });
      await tell(agentId, `rework: ${first?.text ?? ""}`);
      await appendEvent(u, {
        goalId: q.goalId,
        name: "status",
        agentId,
        data: { state: "rework", qid: q.id },
      });
    }
    return;
  }
  const to = q.subjectLeaderId ?? agentId;
  await tell(
    to,
    `[OWNER ANSWER] to the ${q.origin.replace("_", " ")} about agent ${agentId} (qid=${q.id}):\n${first?.text ?? ""}`,
  );
}
