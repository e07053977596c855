import type { Unit } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { resolveQuestion } from "@/lib/domain/questions/resolve";
import type { QuestionRow } from "@/lib/domain/questions/store";
// A cycle (system-answer.ts lifts through this file); the label is only read at call time.
import { LIFT_QUARANTINE } from "@/lib/domain/questions/system-answer";

/**
 * Lift an agent's quarantine inside the caller's unit: one conditional update (exactly one lifter wins),
 * an `agent_unquarantined` event naming the owner and how (`via`), the agent and the goal channel told.
 * Reputation is unchanged; a pending quarantine card of the owner is closed when the lift came another way.
 * Returns false when the agent was not quarantined.
 */
export async function liftQuarantine(
  u: Unit,
  agent: { id: number; goalId: number; name: string; quarantinedAt: Date | null },
  ownerId: number,
  via: "unquarantine_agent" | "owner_card",
): Promise<boolean> {
  const now = new Date();
  const lifted = await u.db.agent.updateMany({
    where: { id: agent.id, quarantinedAt: { not: null } },
    data: { quarantinedAt: null, unquarantinedAt: now, unquarantinedBy: ownerId },
  });
  if (lifted.count !== 1) return false;
  await appendEvent(u, {
    goalId: agent.goalId,
    name: "agent_unquarantined",
    agentId: agent.id,
    data: { by_user_id: ownerId, via, quarantined_at: agent.quarantinedAt?.toISOString() ?? null },
  });
  await insertMessage(u, {
    goalId: agent.goalId,
    recipientAgentId: agent.id,
    sender: { kind: "user" },
    kind: "system",
    content: "The owner lifted your quarantine: you may claim tasks again. Your reputation is unchanged.",
  });
  await postToGoalChannel(
    u,
    agent.goalId,
    `The owner lifted the quarantine of ${agent.name} (#${agent.id}).`,
  );
  if (via !== "owner_card") {
    // The owner's pending card about this quarantine is moot now: close it as lifted, so /questions does
    // not keep asking (its answer path finds the agent no longer quarantined and changes nothing).
    const cards = await u.db.question.findMany({
      where: { askerId: agent.id, origin: "quarantine", status: "pending", holderId: null },
    });
    for (const card of cards) {
      await resolveQuestion(u, card as QuestionRow, null, {
        kind: "answered",
        answers: [{ selected_labels: [LIFT_QUARANTINE], selected_values: [LIFT_QUARANTINE], text: null }],
        by: "system",
        reason: `lifted via ${via}`,
      });
    }
  }
  return true;
}
