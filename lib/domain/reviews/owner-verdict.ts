import type { Unit } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { postSentinels } from "@/lib/domain/teams/terminate-child";

/**
 * The owner's answer to the root agent's review (the seam for the questions feature, which asks the owner
 * Approve / Rework when the root calls signal_review). Approve ends the root: a terminate sentinel to it and
 * its whole subtree. Rework clears the review (`review.acknowledged`) and sends "rework: <text>" to the root.
 * Call inside the caller's write unit.
 */
export async function applyOwnerVerdict(
  u: Unit,
  v: { goalId: number; agentId: number; verdict: "approve" | "rework"; text?: string },
): Promise<void> {
  const root = await u.db.agent.findUnique({ where: { id: v.agentId } });
  if (!root || root.goalId !== v.goalId || root.leaderId !== null) return;
  if (v.verdict === "approve") {
    await appendEvent(u, {
      goalId: v.goalId,
      name: "review.approved",
      agentId: root.id,
      data: { by: USER_SENTINEL },
    });
    await postSentinels(u, root.id, "approved", null);
    return;
  }
  await u.db.agent.update({
    where: { id: root.id },
    data: { reviewPending: false, reviewStage: 0, terminationRequested: false, termReqStage: 0 },
  });
  const msg = await insertMessage(u, {
    goalId: v.goalId,
    recipientAgentId: root.id,
    sender: { kind: "user" },
    content: `rework: ${v.text ?? ""}`.trim(),
  });
  await appendEvent(u, {
    goalId: v.goalId,
    name: "review.acknowledged",
    agentId: root.id,
    data: { by: USER_SENTINEL, message_id: msg.uid },
  });
}
