import type { Unit } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { domainOf, reputationKey, reputationScore, SEED_SHARE } from "@/lib/domain/reputation/reputation";
import { LAUNCH_TOPIC } from "@/lib/domain/runner/launch-jobs";
import { DomainError } from "@/lib/errors";
import { AGENT_KEY_PREFIX, newSecret } from "@/lib/ids";
import { type AgentPayload, agentConfigHash, checkAgentGrant } from "./agent-proposal";

type Goal = {
  id: number;
  title: string;
  ownerId: number;
  maxSpawnDepth: number;
  budgetCents: number | null;
  budgetTokens: number | bigint | null;
  spentCents: number;
  spentTokens: number | bigint;
};
type Proposal = { id: number; proposerId: number; payloadJson: string };

/**
 * Approve an agent proposal, inside the decision's transaction: re-check the grant (depth, cap, name),
 * create the agent (leader = the proposer, depth + 1, config hash, its scope and tier, an API key stored
 * only as a hash), seed its reputation at 70 % of the proposer's score in the parent task's domain, and
 * tell the proposer. Returns the new agent's id.
 */
export async function approveAgentProposal(u: Unit, goal: Goal, proposal: Proposal, messageId: number) {
  const p = JSON.parse(proposal.payloadJson) as AgentPayload;
  const proposer = await u.db.agent.findUnique({
    where: { id: proposal.proposerId },
    select: {
      id: true,
      name: true,
      spawnDepth: true,
      toolScopeJson: true,
      autonomyTier: true,
      configHash: true,
      status: true,
      terminateConsumed: true,
      terminatePostedAt: true,
    },
  });
  const task = await u.db.goalTask.findUnique({
    where: { id: p.parent_task_id },
    select: { id: true, budgetCents: true, budgetTokens: true, billingCode: true },
  });
  if (!proposer || !task) throw new Error(`agent proposal ${proposal.id}: proposer or task gone`);
  if (isTerminated(proposer) || proposer.terminatePostedAt !== null) {
    // Its pending proposals were closed when its sentinel was posted; one it made after that lands here.
    throw new DomainError(
      "proposer_ended",
      `${proposer.name} (#${proposer.id}) has ended or is terminating: its proposed agent would report to nobody. Reject the proposal.`,
      { details: { proposer_id: proposer.id, proposal_message_id: messageId } },
    );
  }
  // Names are unique among the owner's active agents: approvals of one owner queue on the owner's row
  // (PostgreSQL; SQLite has one writer), so two approvals of the same name cannot both pass the check.
  await u.sql.run(`UPDATE "User" SET email = email WHERE id = ?`, goal.ownerId);
  await checkAgentGrant(u, proposer, goal, task, p);
  const configHash = agentConfigHash(p);
  const agent = await u.db.agent.create({
    data: {
      goalId: goal.id,
      name: p.name,
      role: "specialist",
      model: p.model,
      systemPrompt: p.system_prompt,
      toolScopeJson: JSON.stringify(p.tool_scope),
      autonomyTier: p.autonomy_tier,
      leaderId: proposer.id,
      spawnDepth: proposer.spawnDepth + 1,
      configHash,
      proposalId: proposal.id,
      mcpServersJson: JSON.stringify(p.mcp_servers ?? []),
      // Started by a runner, like spawned agents (docs/runner.md).
      runnerManaged: true,
      runState: "queued",
    },
    select: { id: true, name: true, spawnDepth: true },
  });
  u.notify(LAUNCH_TOPIC);
  const { hash, display } = newSecret(AGENT_KEY_PREFIX);
  await u.db.apiKey.create({ data: { agentId: agent.id, hash, prefix: display } });

  // Reputation: 70 % of the proposer's score in the parent task's domain, unless this configuration
  // already has evidence there (the same config proposed again keeps its own record).
  const domain = domainOf(task.billingCode);
  const parent = await reputationScore(u, reputationKey(proposer), domain);
  const mine = await reputationScore(u, configHash, domain);
  const seed = mine.evidence === 0 ? SEED_SHARE * parent.score : null;
  if (seed !== null) {
    await u.db.reputationEvidence.create({
      data: { configHash, domain, delta: seed, weight: 1, taskId: null },
    });
  }
  await appendEvent(u, {
    goalId: goal.id,
    name: "agent_spawned",
    agentId: agent.id,
    data: {
      name: agent.name,
      role: "specialist",
      leader: String(proposer.id),
      spawn_depth: agent.spawnDepth,
      proposal_id: proposal.id,
      config_hash: configHash,
      reputation_seed: seed,
      domain,
    },
  });
  await insertMessage(u, {
    goalId: goal.id,
    recipientAgentId: proposer.id,
    sender: { kind: "user" },
    kind: "proposal_approved",
    content: `Your proposed agent ${agent.name} (#${agent.id}) was approved (proposal ${messageId}). It reports to you (depth ${agent.spawnDepth}, tier ${p.autonomy_tier}); message it with send_message to "${agent.id}".`,
    meta: { proposal_message_id: messageId, proposal_id: proposal.id, agent_id: agent.id, name: agent.name },
  });
  await postToGoalChannel(
    u,
    goal.id,
    `Agent ${agent.name} (#${agent.id}) approved (proposal ${messageId}); it reports to ${proposer.name} (#${proposer.id}).`,
  );
  return agent.id;
}

/** Reject an agent proposal: nothing is created; the reason reaches the proposer. */
export async function rejectAgentProposal(
  u: Unit,
  goal: Goal,
  proposal: Proposal,
  messageId: number,
  reason: string,
) {
  const p = JSON.parse(proposal.payloadJson) as AgentPayload;
  await insertMessage(u, {
    goalId: goal.id,
    recipientAgentId: proposal.proposerId,
    sender: { kind: "user" },
    kind: "proposal_rejected",
    content: `Your proposed agent ${p.name} (proposal ${messageId}) was rejected: ${reason}\nRevise it and call propose_agent again, or do the work yourself.`,
    meta: { proposal_message_id: messageId, proposal_id: proposal.id, reason },
  });
  await appendEvent(u, {
    goalId: goal.id,
    name: "agent_proposal_rejected",
    data: { proposal_message_id: messageId, name: p.name, reason },
  });
  await postToGoalChannel(
    u,
    goal.id,
    `Agent ${p.name} (proposal ${messageId}) rejected by the owner: ${reason}`,
  );
}
