import type { Unit } from "@/lib/db";
import { revokeAgentKeys } from "@/lib/domain/agents/terminated";
import { appendEvent } from "@/lib/domain/events/append-event";

/**
 * A leader's `send_message` to its child answers the child's pending review (`review.acknowledged`)
 * and rejects a pending termination request: both flags clear and the watchdog ladders reset.
 */
export async function leaderResponded(
  u: Unit,
  m: { goalId: number; leaderId: number; childId: number; messageId: string },
): Promise<void> {
  const child = await u.db.agent.findUniqueOrThrow({ where: { id: m.childId } });
  await u.db.agent.update({
    where: { id: child.id },
    data: { reviewPending: false, reviewStage: 0, terminationRequested: false, termReqStage: 0 },
  });
  if (child.reviewPending) {
    await appendEvent(u, {
      goalId: m.goalId,
      name: "review.acknowledged",
      agentId: child.id,
      teamId: child.teamId,
      data: { by: String(m.leaderId), message_id: m.messageId },
    });
  }
  if (child.terminationRequested) {
    await appendEvent(u, {
      goalId: m.goalId,
      name: "status",
      agentId: child.id,
      teamId: child.teamId,
      data: { state: "termination_rejected", by: String(m.leaderId), message_id: m.messageId },
    });
  }
}

/**
 * The agent has received its terminate sentinel (`how` = "read"), or the watchdog's grace ran out
 * ("watchdog_grace"): `terminate_consumed` is set, the agent is terminated and its inbox closes.
 */
export async function consumeTerminate(
  u: Unit,
  agent: { agentId: number; goalId: number },
  how: "read" | "watchdog_grace",
): Promise<boolean> {
  const { count } = await u.db.agent.updateMany({
    where: { id: agent.agentId, terminateConsumed: false },
    data: {
      terminateConsumed: true,
      status: "terminated",
      reviewPending: false,
      terminationRequested: false,
    },
  });
  if (count === 0) return false;
  await revokeAgentKeys(u, agent.agentId);
  await appendEvent(u, {
    goalId: agent.goalId,
    name: "agent_completed",
    agentId: agent.agentId,
    data: { reason: how === "read" ? "terminate_consumed" : "watchdog_grace" },
  });
  return true;
}
