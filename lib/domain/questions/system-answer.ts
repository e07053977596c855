import type { Unit } from "@/lib/db";
import { AUTONOMY_ORIGIN, approvalOutcomeText } from "@/lib/domain/agents/autonomy";
import { revokeAgentKeys } from "@/lib/domain/agents/terminated";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { liftQuarantine } from "@/lib/domain/reputation/lift-quarantine";
import { terminateQuarantined } from "@/lib/domain/reputation/terminate-quarantined";
import { applyOwnerVerdict } from "@/lib/domain/reviews/owner-verdict";
import { resumeInUnit } from "@/lib/domain/usage/resume-goal";
import { DomainError } from "@/lib/errors";
import type { Resolution } from "./resolve";
import type { QuestionRow } from "./store";

export const APPROVE = "Approve";
export const REWORK = "Rework";
/** Issue 13: the quarantine card's options. */
export const LIFT_QUARANTINE = "Lift quarantine";
export const KEEP_QUARANTINED = "Keep quarantined";
export const TERMINATE_QUARANTINED = "Terminate";
/** issue 12: the two decisions of the budget pause notice. */
export const KEEP_PAUSED = "Keep paused";
export const RAISE_AND_RESUME = "Raise the budget and resume";

/**
 * What the owner's answer to a system question does (docs/questions.md):
 * - root_review, Approve: `applyOwnerVerdict` posts terminate sentinels to the coordinator and every
 *   agent below it; the coordinator ends (status terminated, event `status`) and the goal completes
 *   (`goal_completed`).
 * - root_review, Rework: `applyOwnerVerdict` clears the review and sends `rework: <text>` from the owner.
 * - watchdog escalations of a review or termination request: the owner's text goes as a system message to
 *   the leader concerned (or to the agent itself when the owner is its leader).
 * - idle agents (one card per goal): nudge, restart or terminate every agent listed, or leave them
 *   (lib/domain/watchdog/idle-alert.ts).
 * - quarantine (issue 13): Lift quarantine lifts it (lib/domain/reputation/lift-quarantine.ts); Terminate
 *   ends it and its subtree (terminate-quarantined.ts); Keep does nothing.
 * - autonomy (issue 13): the agent that asked for approval is told Allow / Deny (and why) and calls again.
 * - declined: the agent the question is about is told the owner declined, with the reason.
 */
export async function onSystemQuestionClosed(u: Unit, q: QuestionRow, r: Resolution): Promise<void> {
  const agentId = q.askerId;
  const tell = (recipientAgentId: number, content: string, kind = "system") =>
    insertMessage(u, { goalId: q.goalId, recipientAgentId, sender: { kind: "system" }, kind, content });
  if (q.origin === AUTONOMY_ORIGIN) {
    // Issue 13: an approval request of the autonomy gate: the asker learns the decision and calls again.
    const text = (JSON.parse(q.questionsJson) as { question: string }[])[0]?.question ?? "";
    await tell(
      agentId,
      r.kind === "declined"
        ? `[DENIED] qid=${q.id}: ${text}\nThe owner declined: ${r.reason}`
        : approvalOutcomeText(q.id, text, r.answers[0]),
      "approval_decision",
    );
    return;
  }
  if (r.kind === "declined") {
    await tell(agentId, `The owner declined to answer the ${q.origin.replace("_", " ")}: ${r.reason}`);
    return;
  }
  const first = r.answers[0];
  if (q.origin === "quarantine") {
    // Issue 13: Lift quarantine lifts it (a no-op when it was lifted meanwhile); Terminate ends it (and
    // everything under it); Keep changes nothing.
    const choice = first?.selected_labels[0];
    if (q.ownerId === null) return;
    if (choice === TERMINATE_QUARANTINED) {
      await terminateQuarantined(u, agentId, q.ownerId);
      return;
    }
    if (choice !== LIFT_QUARANTINE) return;
    const agent = await u.db.agent.findUnique({
      where: { id: agentId },
      select: { id: true, goalId: true, name: true, quarantinedAt: true },
    });
    if (agent) await liftQuarantine(u, agent, q.ownerId, "owner_card");
    return;
  }
  if (q.origin === "root_review") {
    const approve = first?.selected_labels[0] === APPROVE;
    // The review handshake itself (sentinels down the whole tree, or the rework message) is the teams code's.
    await applyOwnerVerdict(u, {
      goalId: q.goalId,
      agentId,
      verdict: approve ? "approve" : "rework",
      text: first?.text ?? "",
    });
    if (!approve) return;
    // Approve ends the root at once (it has no leader to wait for) and completes the goal.
    // Its end is recorded here: its key is refused from now on (agent_retired), so it will not read the
    // terminate sentinel itself, and the runner stops its process at the next renewal.
    await u.db.agent.update({
      where: { id: agentId },
      data: { status: "terminated", terminateConsumed: true },
    });
    await revokeAgentKeys(u, agentId);
    await appendEvent(u, {
      goalId: q.goalId,
      name: "agent_completed",
      agentId,
      data: { reason: "owner_approved" },
    });
    await appendEvent(u, {
      goalId: q.goalId,
      name: "status",
      agentId,
      data: { state: "terminated", reason: "owner_approved", qid: q.id },
    });
    const completed = await u.db.goal.updateMany({
      where: { id: q.goalId, status: { notIn: [...FINISHED_GOAL_STATUSES] } },
      data: { status: "completed", updatedAt: new Date() },
    });
    if (completed.count > 0) {
      await appendEvent(u, { goalId: q.goalId, name: "goal_completed", agentId, data: { qid: q.id } });
      await postToGoalChannel(
        u,
        q.goalId,
        "The owner approved the coordinator's review: the goal is completed.",
      );
    }
    return;
  }
  if (q.origin === "budget_paused") {
    await onBudgetDecision(u, q.goalId, first?.selected_labels[0], first?.text ?? "");
    return;
  }
  if (q.origin === "idle_escalation") {
    // issue 16 §7: one card for every idle agent of the goal; the choice applies to all of them.
    // Loaded on use: idle-alert reaches the runner and teams code, which import this module (an import cycle).
    const { onIdleDecision } = await import("@/lib/domain/watchdog/idle-alert");
    await onIdleDecision(u, q.goalId, first?.selected_labels[0], agentId);
    return;
  }
  const to = q.subjectLeaderId ?? agentId;
  await tell(
    to,
    `[OWNER ANSWER] to the ${q.origin.replace("_", " ")} about agent ${agentId} (qid=${q.id}):\n${first?.text ?? ""}`,
  );
}

/**
 * issue 12: the owner's answer to the budget pause notice. "Raise the budget and resume" with a dollar
 * amount resumes the goal with that budget (the same rule as resume_goal); an amount that cannot be read,
 * or that the goal has already spent, leaves it paused and says why in the goal channel.
 */
async function onBudgetDecision(u: Unit, goalId: number, label: string | undefined, text: string) {
  if (label !== RAISE_AND_RESUME) return;
  const m = text.replace(/[$,\s]/g, "").match(/^(\d+)(?:\.(\d{1,2}))?$/);
  if (!m) {
    await postToGoalChannel(
      u,
      goalId,
      `The owner chose to resume, but "${text.slice(0, 100)}" is not a dollar amount: the goal stays paused.`,
    );
    return;
  }
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
  try {
    await resumeInUnit(u, goalId, { new_budget_dollars_cents: cents }, "owner");
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    await postToGoalChannel(u, goalId, `The owner chose to resume, but: ${e.message} The goal stays paused.`);
  }
}
