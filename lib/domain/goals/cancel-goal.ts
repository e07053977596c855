import { z } from "zod";
import { write } from "@/lib/db";
import { notTerminatedWhere } from "@/lib/domain/agents/terminated";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { resolveQuestion } from "@/lib/domain/questions/resolve";
import type { QuestionRow } from "@/lib/domain/questions/store";
import { postSentinels } from "@/lib/domain/teams/terminate-child";
import { DomainError } from "@/lib/errors";
import { ownedGoal } from "./owned";

/** Body of `POST /api/goals/:id/cancel` and the goal page's form: an optional reason the agents receive. */
export const cancelGoalInput = z.strictObject({
  reason: z.string().trim().max(2000).optional(),
});

/**
 * The owner cancels a goal (issue 13, docs/goals.md "Cancelling a goal"), in one transaction:
 * - the goal goes `cancelled` (a conditional update: of two cancels one wins, the other is `goal_finished`);
 * - every task that is not done, failed or cancelled goes `cancelled`;
 * - every agent not yet ended gets a terminate sentinel (depth-first, as terminate_child cascades), and the
 *   runner stops what it runs for the goal;
 * - pending proposals (task trees and agents) are rejected and pending questions declined, each with the
 *   reason, which reaches the proposer or asker (a blocked ask_user returns `user_declined`); open resource
 *   requests are declined the same way;
 * - a `goal_cancelled` event and a goal-channel post.
 */
export async function cancelGoal(
  ownerId: number,
  goalId: number,
  input: z.input<typeof cancelGoalInput> = {},
) {
  const { reason: given } = cancelGoalInput.parse(input);
  const reason = `the owner cancelled the goal${given ? `: ${given}` : "."}`;
  return write(async (u) => {
    const goal = await ownedGoal(u, ownerId, goalId);
    const now = new Date();
    const won = await u.db.goal.updateMany({
      where: { id: goalId, status: { notIn: [...FINISHED_GOAL_STATUSES] } },
      data: { status: "cancelled", pausedReason: null, pausedAt: null, updatedAt: now },
    });
    if (won.count !== 1) {
      const current = await u.db.goal.findUnique({ where: { id: goalId }, select: { status: true } });
      throw new DomainError(
        "goal_finished",
        `Goal ${goalId} is ${current?.status ?? goal.status}; it cannot be cancelled.`,
        {
          details: { goal_id: goalId, status: current?.status ?? goal.status },
        },
      );
    }
    const tasks = await u.db.goalTask.updateMany({
      where: { goalId, status: { notIn: ["done", "failed", "cancelled"] } },
      data: { status: "cancelled", verifyLeaseUntil: null, updatedAt: now },
    });

    // Agents: sentinels from the top of each chain down (postSentinels skips those already terminating).
    const agents = await u.db.agent.findMany({
      where: { goalId, ...notTerminatedWhere },
      select: { id: true },
      orderBy: [{ spawnDepth: "asc" }, { id: "asc" }],
    });
    const terminated: number[] = [];
    for (const a of agents) terminated.push(...(await postSentinels(u, a.id, "goal_cancelled", null, false)));

    // Pending proposals: rejected with the reason, the proposer told.
    const proposals = await u.db.proposal.findMany({
      where: { goalId, status: "pending" },
      orderBy: { id: "asc" },
    });
    for (const p of proposals) {
      await u.db.proposal.update({
        where: { id: p.id },
        data: { status: "rejected", reason, decidedAt: now, decidedByUserId: ownerId },
      });
      await insertMessage(u, {
        goalId,
        recipientAgentId: p.proposerId,
        sender: { kind: "user" },
        kind: "proposal_rejected",
        content: `Your ${p.kind === "agent" ? "agent" : "task tree"} proposal (proposal ${p.messageId ?? p.id}) was closed: ${reason}`,
        meta: { proposal_message_id: p.messageId, proposal_id: p.id, reason, goal_cancelled: true },
      });
    }

    // Pending questions: declined with the reason (the asker's ask_user returns user_declined).
    const questions = await u.db.question.findMany({
      where: { goalId, status: "pending" },
      orderBy: { createdAt: "asc" },
    });
    for (const q of questions) {
      await resolveQuestion(u, q as QuestionRow, q.holderId, { kind: "declined", reason, by: "system" });
    }

    // Open resource requests: declined the same way.
    const requests = await u.db.resourceRequest.findMany({
      where: { goalId, status: "open" },
      orderBy: { id: "asc" },
    });
    for (const r of requests) {
      await u.db.resourceRequest.update({
        where: { id: r.id },
        data: { status: "declined", declineReason: reason, decidedAt: now },
      });
      await insertMessage(u, {
        goalId,
        recipientAgentId: r.agentId,
        sender: { kind: "user" },
        kind: "resource_declined",
        content: `Your request #${r.id} for ${r.name} (task #${r.taskId}) was closed: ${reason}`,
        meta: { request_id: r.id, name: r.name, reason },
      });
    }

    const summary = {
      tasks_cancelled: tasks.count,
      agents_terminated: terminated.length,
      proposals_closed: proposals.length,
      questions_closed: questions.length,
      requests_closed: requests.length,
    };
    await appendEvent(u, {
      goalId,
      name: "goal_cancelled",
      data: { from: goal.status, to: "cancelled", by_user_id: ownerId, reason: given ?? null, ...summary },
    });
    await postToGoalChannel(
      u,
      goalId,
      `The owner cancelled this goal${given ? `: ${given}` : "."} ${summary.tasks_cancelled} task(s) cancelled, ${summary.agents_terminated} agent(s) told to stop, ${summary.proposals_closed} proposal(s) and ${summary.questions_closed} question(s) closed.`,
      { goal_status: "cancelled", ...summary },
    );
    return { goal_id: goalId, status: "cancelled" as const, ...summary };
  });
}
