import type { Unit } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { finishAgentTask } from "@/lib/domain/plans/plan-state";
import { postSentinels } from "@/lib/domain/teams/terminate-child";

/**
 * The quarantine card's "Terminate" (issue 13): the owner ends a quarantined agent, inside the caller's
 * unit. Like a leader's forced `terminate_child`: `terminate.forced` (reason `owner_quarantine`, by the
 * owner), its plan task `failed`, a terminate sentinel to it and, depth-first, to every agent under it;
 * its leader and the goal channel are told. Returns false (and changes nothing) when the agent is no
 * longer quarantined (lifted meanwhile) or is already terminating or ended.
 */
export async function terminateQuarantined(u: Unit, agentId: number, ownerId: number): Promise<boolean> {
  const agent = await u.db.agent.findUnique({ where: { id: agentId } });
  if (!agent?.quarantinedAt || agent.terminatePostedAt || isTerminated(agent)) return false;
  await appendEvent(u, {
    goalId: agent.goalId,
    name: "terminate.forced",
    agentId: agent.id,
    teamId: agent.teamId,
    data: { reason: "owner_quarantine", by: USER_SENTINEL, by_user_id: ownerId },
  });
  await finishAgentTask(u, agent, "failed");
  const posted = await postSentinels(u, agent.id, "owner_quarantine", null);
  if (agent.leaderId !== null) {
    await insertMessage(u, {
      goalId: agent.goalId,
      recipientAgentId: agent.leaderId,
      sender: { kind: "system" },
      kind: "system",
      content: `The owner terminated your quarantined agent ${agent.name} (#${agent.id})${
        posted.length > 1 ? ` and the ${posted.length - 1} agent(s) under it` : ""
      }. Its plan task, if any, is failed.`,
      meta: { agent_id: agent.id, reason: "owner_quarantine" },
    });
  }
  await postToGoalChannel(
    u,
    agent.goalId,
    `The owner terminated the quarantined agent ${agent.name} (#${agent.id}).`,
    { kind: "agent_terminated", agent_id: agent.id, reason: "owner_quarantine" },
  );
  return true;
}
