import { z } from "zod";
import { write } from "@/lib/db";
import { approvalsChannelId, postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError, invalidInput, notFound } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { contentHash, flatten, MAX_TREE_DEPTH, MAX_TREE_NODES, renderTree, taskNode } from "./task-tree";

export const proposeTaskTreeInput = z.strictObject({
  goal_id: z.number().int().positive().max(MAX_DB_INT),
  reasoning: z.string().max(16_000).optional(),
  tree: taskNode,
});

export const proposeTaskTreeOutput = z.object({
  proposal_message_id: z.number().int(),
  channel_id: z.number().int(),
});

/** Goal states in which a coordinator may propose (more) work. */
const OPEN_GOAL = new Set(["draft", "active", "stuck"]);

/**
 * `propose_task_tree`: post the tree to `#approvals` for the goal's owner; nothing is created until
 * approval. One pending proposal per goal: proposing the identical content again (a coordinator
 * retrying after a restart) returns the pending one; different content while one is pending is
 * `ErrProposalPending`.
 */
export async function proposeTaskTree(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof proposeTaskTreeInput>,
) {
  const nodes = flatten(input.tree);
  if (nodes.length > MAX_TREE_NODES)
    throw invalidInput(`tree: at most ${MAX_TREE_NODES} tasks per proposal (got ${nodes.length})`);
  if (nodes.some((n) => n.depth >= MAX_TREE_DEPTH))
    throw invalidInput(`tree: at most ${MAX_TREE_DEPTH} levels deep`);
  const payload = { reasoning: input.reasoning ?? null, tree: input.tree };
  const hash = contentHash(payload);
  return write(async (u) => {
    // Lock the goal row (PostgreSQL: concurrent proposals for one goal queue here; SQLite: one writer),
    // refusing a paused goal under that lock (budget gate).
    await holdGoalUnpaused(u, caller.goalId, "propose_task_tree");
    const goal = await u.db.goal.findUnique({ where: { id: input.goal_id } });
    if (!goal || goal.id !== caller.goalId) throw notFound(`goal ${input.goal_id}`);
    if (goal.coordinatorAgentId !== caller.agentId) {
      throw new DomainError("ErrNotCoordinator", "Only the goal's coordinator may propose its task tree.", {
        details: { goal_id: goal.id, coordinator_agent_id: goal.coordinatorAgentId },
      });
    }
    const pending = await u.db.proposal.findFirst({
      where: { goalId: goal.id, kind: "task_tree", status: "pending" },
    });
    const channelId = await approvalsChannelId(u);
    if (pending) {
      if (pending.contentHash === hash && pending.messageId !== null)
        return { proposal_message_id: pending.messageId, channel_id: channelId };
      throw new DomainError("ErrProposalPending", "This goal already has a task tree awaiting the owner.", {
        details: { goal_id: goal.id, proposal_message_id: pending.messageId },
      });
    }
    if (!OPEN_GOAL.has(goal.status)) {
      throw new DomainError("ErrGoalNotOpen", `Goal ${goal.id} is ${goal.status}; it takes no new tasks.`, {
        details: { goal_id: goal.id, status: goal.status },
      });
    }
    notifyOwner(u, goal.ownerId);
    // A peer verifier must be an agent of this goal.
    const peers = [
      ...new Set(
        nodes.flatMap(({ node }) =>
          node.verifier_config?.kind === "peer" ? [node.verifier_config.agent_id] : [],
        ),
      ),
    ];
    if (peers.length > 0) {
      const found = await u.db.agent.findMany({
        where: { id: { in: peers }, goalId: goal.id },
        select: { id: true },
      });
      const missing = peers.filter((p) => !found.some((f) => f.id === p));
      if (missing.length > 0)
        throw invalidInput(`verifier_config.agent_id: no agent ${missing.join(", ")} in goal ${goal.id}`, {
          field: "verifier_config.agent_id",
          missing,
        });
    }
    const proposal = await u.db.proposal.create({
      data: {
        goalId: goal.id,
        kind: "task_tree",
        proposerId: caller.agentId,
        payloadJson: JSON.stringify(payload),
        contentHash: hash,
      },
    });
    const header = `Task tree proposed for goal "${goal.title}" (#${goal.id}): ${nodes.length} task${nodes.length === 1 ? "" : "s"}.`;
    const reasoning = input.reasoning ? `\nReasoning: ${input.reasoning}` : "";
    const message = await insertMessage(u, {
      goalId: goal.id,
      channelId,
      sender: { kind: "agent", agentId: caller.agentId },
      kind: "proposal",
      content: `${header}${reasoning}\n\n${renderTree(input.tree)}`,
      meta: { proposal_id: proposal.id, proposal_kind: "task_tree", content_hash: hash },
    });
    await u.db.proposal.update({ where: { id: proposal.id }, data: { messageId: message.id } });
    await appendEvent(u, {
      goalId: goal.id,
      name: "task_tree_proposed",
      agentId: caller.agentId,
      data: { proposal_message_id: message.id, tasks: nodes.length, content_hash: hash },
    });
    await postToGoalChannel(u, goal.id, `${header} Awaiting the owner's approval in #approvals.`, {
      proposal_message_id: message.id,
    });
    return { proposal_message_id: message.id, channel_id: channelId };
  });
}
