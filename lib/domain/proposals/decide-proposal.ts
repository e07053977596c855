import { z } from "zod";
import { type Unit, write } from "@/lib/db";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { settleGoal } from "@/lib/domain/goals/lifecycle";
import { owned } from "@/lib/domain/goals/owned";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import { DomainError } from "@/lib/errors";
import { approveAgentProposal, rejectAgentProposal } from "./decide-agent";
import { ancestrySnapshot, flatten, type TaskNode } from "./task-tree";

/** Body of `POST /api/approvals/:id/approve` (and of the browser's form). */
export const approveInput = z.strictObject({
  content_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional()
    .describe("The content_hash shown with the proposal: the decision applies to exactly that content."),
});

/** Body of `POST /api/approvals/:id/reject`. */
export const rejectInput = approveInput.extend({ reason: z.string().trim().min(1).max(4000) });

type Decision =
  | { kind: "approve"; content_hash?: string }
  | { kind: "reject"; reason: string; content_hash?: string };

/**
 * The owner decides a proposal (a task tree or an agent, decide-agent.ts), addressed by its `proposal_message_id`. Only the goal's owner
 * may (anyone else gets `not_found`), the decision is single-use (`ErrProposalNotPending` afterwards),
 * and when `content_hash` is given it must be the proposal's (`ErrProposalChanged`). Approval
 * materializes every node in this one transaction and moves the goal `draft → active`; rejection creates
 * nothing and sends the reason to the proposer's inbox.
 */
export async function decideProposal(ownerId: number, messageId: number, decision: Decision) {
  return write(async (u) => {
    const row = await u.db.proposal.findUnique({ where: { messageId }, include: { goal: true } });
    const proposal = owned(
      row?.kind === "task_tree" || row?.kind === "agent" ? row : null,
      (p) => p.goal.ownerId,
      ownerId,
      `proposal ${messageId}`,
    );
    if (decision.content_hash !== undefined && decision.content_hash !== proposal.contentHash) {
      throw new DomainError(
        "ErrProposalChanged",
        "The proposal's content is not the content you decided on.",
        {
          details: { proposal_message_id: messageId, content_hash: proposal.contentHash },
        },
      );
    }
    const status = decision.kind === "approve" ? "approved" : "rejected";
    const taken = await u.sql.run(
      `UPDATE "Proposal" SET status = ?, reason = ?, "decidedAt" = ?, "decidedByUserId" = ? WHERE id = ? AND status = 'pending'`,
      status,
      decision.kind === "reject" ? decision.reason : null,
      new Date(),
      ownerId,
      proposal.id,
    );
    if (taken !== 1) {
      const now = await u.sql.get<{ status: string }>(
        `SELECT status FROM "Proposal" WHERE id = ?`,
        proposal.id,
      );
      throw new DomainError(
        "ErrProposalNotPending",
        `Proposal ${messageId} was already decided (${now?.status}).`,
        {
          details: { proposal_message_id: messageId, status: now?.status },
        },
      );
    }
    const goal = proposal.goal;
    notifyOwner(u, ownerId);
    if (proposal.kind === "agent") {
      if (decision.kind === "reject") {
        await rejectAgentProposal(u, goal, proposal, messageId, decision.reason);
        return { proposal_message_id: messageId, status, task_ids: [] as number[] };
      }
      const agentId = await approveAgentProposal(u, goal, proposal, messageId);
      return { proposal_message_id: messageId, status, task_ids: [] as number[], agent_id: agentId };
    }
    if (decision.kind === "reject") {
      await insertMessage(u, {
        goalId: goal.id,
        recipientAgentId: proposal.proposerId,
        sender: { kind: "user" },
        kind: "proposal_rejected",
        content: `Your task tree for goal "${goal.title}" (proposal ${messageId}) was rejected: ${decision.reason}\nRevise it and call propose_task_tree again.`,
        meta: { proposal_message_id: messageId, reason: decision.reason },
      });
      await appendEvent(u, {
        goalId: goal.id,
        name: "task_tree_rejected",
        data: { proposal_message_id: messageId, reason: decision.reason },
      });
      await postToGoalChannel(
        u,
        goal.id,
        `Task tree (proposal ${messageId}) rejected by the owner: ${decision.reason}`,
      );
      return { proposal_message_id: messageId, status, task_ids: [] as number[] };
    }
    const payload = JSON.parse(proposal.payloadJson) as { tree: TaskNode };
    const taskIds = await materialize(u, goal.id, proposal.id, payload.tree);
    if (goal.status === "draft") {
      await u.sql.run(
        `UPDATE "Goal" SET status = 'active', "updatedAt" = ? WHERE id = ?`,
        new Date(),
        goal.id,
      );
      await appendEvent(u, {
        goalId: goal.id,
        name: "goal_activated",
        data: { from: "draft", to: "active" },
      });
    }
    // A stuck goal has workable tasks again (lib/domain/goals/lifecycle.ts).
    await settleGoal(u, goal.id, "task_tree_approved");
    await appendEvent(u, {
      goalId: goal.id,
      name: "task_tree_approved",
      data: { proposal_message_id: messageId, task_ids: taskIds },
    });
    await insertMessage(u, {
      goalId: goal.id,
      recipientAgentId: proposal.proposerId,
      sender: { kind: "user" },
      kind: "proposal_approved",
      content: `Your task tree for goal "${goal.title}" (proposal ${messageId}) was approved: ${taskIds.length} tasks exist now (ids ${taskIds[0]}–${taskIds.at(-1)}). Agents can claim them with claim_task.`,
      meta: { proposal_message_id: messageId, task_ids: taskIds },
    });
    await postToGoalChannel(
      u,
      goal.id,
      `Task tree (proposal ${messageId}) approved: ${taskIds.length} tasks created.${goal.status === "draft" ? " Goal is now active." : ""}`,
    );
    return { proposal_message_id: messageId, status, task_ids: taskIds };
  });
}

/** Insert every node (parents first) with parent link, depth and ancestry snapshot; returns the ids. */
async function materialize(u: Unit, goalId: number, proposalId: number, tree: TaskNode): Promise<number[]> {
  const nodes = flatten(tree);
  const ids: number[] = [];
  const now = new Date();
  for (const [i, { node, depth, parent }] of nodes.entries()) {
    const ancestors: {
      id: number;
      title: string;
      description: string;
      acceptance_criteria: string | null;
    }[] = [];
    for (let p = parent; p !== null; p = nodes[p]?.parent ?? null) {
      const a = nodes[p];
      const id = ids[p];
      if (!a || id === undefined) break;
      ancestors.unshift({
        id,
        title: a.node.title,
        description: a.node.description,
        acceptance_criteria: a.node.acceptance_criteria ?? null,
      });
    }
    const verifier = node.verifier_config ?? { kind: "auto" as const };
    const row = await u.sql.get<{ id: number }>(
      `INSERT INTO "GoalTask" ("goalId", "parentId", depth, title, description, "acceptanceCriteria", "billingCode",
         "budgetTokens", "budgetCents", "verifierJson", "verifierKind", ancestry, status, "proposalId", "createdAt", "updatedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'approved', ?, ?, ?) RETURNING id`,
      goalId,
      parent === null ? null : (ids[parent] ?? null),
      depth,
      node.title,
      node.description,
      node.acceptance_criteria ?? null,
      node.billing_code ?? null,
      node.budget_tokens ?? null,
      node.budget_dollars_cents ?? null,
      JSON.stringify(verifier),
      verifier.kind,
      ancestrySnapshot(ancestors),
      proposalId,
      now,
      now,
    );
    if (!row) throw new Error(`materialize: node ${i} not inserted`);
    ids.push(Number(row.id));
  }
  await u.sql.run(`UPDATE "Goal" SET "taskCount" = "taskCount" + ? WHERE id = ?`, ids.length, goalId);
  return ids;
}
