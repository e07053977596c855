import { z } from "zod";
import { write } from "@/lib/db";
import { MAX_MESSAGE_CHARS } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { escalateToOwner } from "@/lib/domain/owner-gateway";
import { DomainError } from "@/lib/errors";

export const signalReviewInput = z.strictObject({
  detail: z
    .string()
    .max(MAX_MESSAGE_CHARS)
    .nullable()
    .optional()
    .describe(
      "Must contain [REVIEW REQUIRED] or [ITERATION READY]. Summary: deliverables, open questions, what the leader can do.",
    ),
});

export const signalReviewOutput = z.object({ recorded: z.literal(true), review_pending: z.literal(true) });

const ENVELOPE = /\[(REVIEW REQUIRED|ITERATION READY)\]/i;

/** `envelope_missing` with reason `detail_empty` or `envelope_missing`, else the trimmed detail. */
export function checkEnvelope(detail: string | null | undefined): string {
  if (!detail?.trim()) {
    throw new DomainError("envelope_missing", "detail is empty.", {
      details: { reason: "detail_empty" },
      hint: "Call signal_review with a detail that starts with [REVIEW REQUIRED] (or [ITERATION READY]) and summarizes your deliverables.",
    });
  }
  if (!ENVELOPE.test(detail)) {
    throw new DomainError(
      "envelope_missing",
      "detail lacks a [REVIEW REQUIRED] or [ITERATION READY] marker.",
      {
        details: { reason: "envelope_missing" },
      },
    );
  }
  return detail;
}

/**
 * `signal_review`: mark the caller review-pending (re-entrant: a new call supersedes the previous
 * detail and timestamp), record `status` review_pending, and put a `review_report` in the leader's
 * inbox, which closes the leader's review gate. The root agent's leader is the owner: the review goes
 * to the owner gateway instead.
 */
export async function signalReview(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof signalReviewInput>,
) {
  const detail = checkEnvelope(input.detail);
  return write(async (u) => {
    const me = await u.db.agent.findUniqueOrThrow({ where: { id: caller.agentId } });
    const now = new Date();
    await u.db.agent.update({
      where: { id: me.id },
      data: {
        reviewPending: true,
        reviewPendingAt: now,
        reviewDetail: detail,
        reviewStage: 0,
        reviewStageAt: null,
      },
    });
    await appendEvent(u, {
      goalId: caller.goalId,
      name: "status",
      agentId: me.id,
      teamId: me.teamId,
      data: { state: "review_pending", detail, superseded: me.reviewPending },
    });
    if (me.leaderId === null) {
      await escalateToOwner(u, { kind: "root_review", goalId: caller.goalId, agentId: me.id, detail });
      await appendEvent(u, {
        goalId: caller.goalId,
        name: "review.escalated_to_user",
        agentId: me.id,
        data: { reason: "root_review" },
      });
    } else {
      await insertMessage(u, {
        goalId: caller.goalId,
        recipientAgentId: me.leaderId,
        sender: { kind: "agent", agentId: me.id },
        kind: "review_report",
        content: `[REVIEW] from ${me.name} (agent ${me.id}):\n${detail}\n\nApprove with terminate_child(agent_id="${me.id}"), or reply with send_message to ask for rework.`,
        meta: { agent_id: String(me.id) },
      });
    }
    return { recorded: true as const, review_pending: true as const };
  });
}
