import { type ReadUnit, write } from "@/lib/db";
import { parseScope } from "@/lib/domain/agents/tool-scope";
import { approvalsChannelId, postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError, invalidInput, notFound } from "@/lib/errors";
import { agentPayload, checkAgentGrant, type ProposeAgentInput, renderAgentProposal } from "./agent-proposal";
import { contentHash } from "./task-tree";

export { proposeAgentInput, proposeAgentOutput } from "./agent-proposal";

/** Goal states in which an agent may be proposed. */
const OPEN_GOAL = new Set(["draft", "active", "stuck"]);

/**
 * Every rule of `propose_agent` that comes before a write, in order (bad input, another goal or task, the
 * same proposal pending, the goal closed, depth, the delegation cap, the name), inside the caller's unit.
 * Throws the contract's codes; `same` is the pending identical proposal, if any. Also run by the autonomy
 * gate (lib/domain/agents/autonomy.ts), so that a leader is never asked to approve a proposal that would be
 * refused anyway.
 */
export async function checkAgentProposal(
  u: ReadUnit,
  caller: { agentId: number; goalId: number },
  input: ProposeAgentInput,
  agentTools: readonly string[],
) {
  const unknown = input.tool_scope.filter((t) => !agentTools.includes(t));
  if (unknown.length > 0)
    throw invalidInput(`tool_scope: no agent tool named ${unknown.join(", ")}`, {
      field: "tool_scope",
      unknown,
    });
  const payload = agentPayload(input);
  const hash = contentHash(payload);
  const goal = await u.db.goal.findUnique({ where: { id: input.goal_id } });
  if (!goal || goal.id !== caller.goalId) throw notFound(`goal ${input.goal_id}`);
  const task = await u.db.goalTask.findUnique({
    where: { id: input.parent_task_id },
    select: { id: true, goalId: true, budgetCents: true, budgetTokens: true },
  });
  if (!task || task.goalId !== goal.id) throw notFound(`task ${input.parent_task_id} in goal ${goal.id}`);
  const proposer = await u.db.agent.findUnique({
    where: { id: caller.agentId },
    select: { id: true, name: true, spawnDepth: true, toolScopeJson: true, autonomyTier: true },
  });
  if (!proposer) throw notFound(`agent ${caller.agentId}`);
  const pending = await u.db.proposal.findFirst({
    where: { goalId: goal.id, kind: "agent", status: "pending", proposerId: proposer.id, contentHash: hash },
  });
  const same = pending?.messageId
    ? { proposal_id: pending.id, approval_message_id: pending.messageId }
    : null;
  if (!same) {
    if (!OPEN_GOAL.has(goal.status)) {
      throw new DomainError("ErrGoalNotOpen", `Goal ${goal.id} is ${goal.status}; it takes no new agents.`, {
        details: { goal_id: goal.id, status: goal.status },
      });
    }
    await checkAgentGrant(u, proposer, goal, task, payload);
  }
  return { goal, task, proposer, payload, hash, same };
}

/**
 * `propose_agent`: an agent asks the owner for a specialist. Every rule is checked before anything is
 * written (bad input, another goal or task, the goal closed, depth, the delegation cap, the name); then
 * one `Proposal` (kind `agent`) and its post in `#approvals`. Nothing else exists until the owner
 * approves (decide-proposal.ts). Proposing identical content again while it is pending returns it.
 * `agentTools` are the names of every agent tool (a scope may name no other).
 */
export async function proposeAgent(
  caller: { agentId: number; goalId: number },
  input: ProposeAgentInput,
  agentTools: readonly string[],
) {
  return write(async (u) => {
    // Lock the goal row (PostgreSQL: concurrent proposals for one goal queue here; SQLite: one writer),
    // refusing a paused goal under that lock (budget gate).
    await holdGoalUnpaused(u, caller.goalId, "propose_agent");
    const checked = await checkAgentProposal(u, caller, input, agentTools);
    if (checked.same) return checked.same;
    const { goal, proposer, payload, hash } = checked;
    const channelId = await approvalsChannelId(u);
    notifyOwner(u, goal.ownerId);
    const proposal = await u.db.proposal.create({
      data: {
        goalId: goal.id,
        kind: "agent",
        proposerId: proposer.id,
        payloadJson: JSON.stringify(payload),
        contentHash: hash,
      },
    });
    const header = `Agent proposed for goal "${goal.title}" (#${goal.id}) by ${proposer.name} (#${proposer.id}): ${payload.name}.`;
    const message = await insertMessage(u, {
      goalId: goal.id,
      channelId,
      sender: { kind: "agent", agentId: proposer.id },
      kind: "proposal",
      content: `${header}\n\n${renderAgentProposal(payload, parseScope(proposer.toolScopeJson) as string[] | null)}`,
      meta: { proposal_id: proposal.id, proposal_kind: "agent", content_hash: hash },
    });
    await u.db.proposal.update({ where: { id: proposal.id }, data: { messageId: message.id } });
    await appendEvent(u, {
      goalId: goal.id,
      name: "agent_proposed",
      agentId: proposer.id,
      data: {
        proposal_id: proposal.id,
        approval_message_id: message.id,
        name: payload.name,
        content_hash: hash,
      },
    });
    await postToGoalChannel(u, goal.id, `${header} Awaiting the owner's approval in #approvals.`, {
      proposal_message_id: message.id,
    });
    return { proposal_id: proposal.id, approval_message_id: message.id };
  });
}
