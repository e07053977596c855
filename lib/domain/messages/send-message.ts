import { z } from "zod";
import { write } from "@/lib/db";
import { type SqlBool, type SqlInt, toBool, toInt } from "@/lib/db/rows";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { MAX_MESSAGE_CHARS } from "@/lib/domain/constants";
import { appendEvents, appendEventsAtCommit } from "@/lib/domain/events/append-event";
import { leaderResponded } from "@/lib/domain/reviews/acknowledge";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { idFromString } from "@/lib/ids";
import { insertMessage } from "./insert-message";

export const sendMessageInput = z.strictObject({
  to: z.string().min(1).max(64).describe("Recipient's agent_id (as list_peers returns it), in your goal."),
  content: z.string().min(1).max(MAX_MESSAGE_CHARS).describe("Message body."),
});

export const sendMessageOutput = z.object({ delivered: z.literal(true), message_id: z.string() });

/** Hand-written SQL: send_message is a hot path (docs/database.md). */
type Recipient = {
  id: number;
  goalId: number;
  status: string;
  terminateConsumed: SqlBool;
  leaderId: number | null;
  reviewPending: SqlBool;
  terminationRequested: SqlBool;
  /** The recipient's goal's owner, and the sender's (one read). */
  ownerId: number;
  senderOwnerId: number;
  /** Messages waiting in its inbox and their text length (for the caps). */
  pending: SqlInt;
  pendingChars: SqlInt | null;
};

/**
 * `send_message`: put a message in another agent's inbox. Errors: `unknown_recipient`,
 * `task_mismatch` (recipient in another goal of the same owner; another owner's agent is `unknown_recipient`),
 * `recipient_terminated`, `inbox_full` (the cap counts
 * pending messages; system messages bypass it, see `insertMessage` callers).
 */
export async function sendMessage(
  from: { agentId: number; goalId: number },
  input: z.infer<typeof sendMessageInput>,
) {
  const toId = idFromString(input.to);
  return write(async (u) => {
    const to =
      toId === undefined
        ? undefined
        : await u.sql.get<Recipient>(
            // The pending count and size ride along (one round trip; PostgreSQL pays one per statement).
            `SELECT a.id, a."goalId", a.status, a."terminateConsumed", a."leaderId", a."reviewPending", a."terminationRequested",
                    g."ownerId", (SELECT s."ownerId" FROM "Goal" s WHERE s.id = ?) AS "senderOwnerId",
                    p.n AS pending, p.chars AS "pendingChars"
             FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId",
                  (SELECT COUNT(*) AS n, SUM(LENGTH(m.content)) AS chars FROM "Message" m
                   WHERE m."recipientAgentId" = ? AND m."consumedAt" IS NULL) p
             WHERE a.id = ?`,
            from.goalId,
            toId,
            toId,
          );
    // Another owner's agent is answered exactly as a missing one: no probing across tenants (issue 16).
    if (!to || toInt(to.ownerId) !== toInt(to.senderOwnerId)) {
      throw new DomainError("unknown_recipient", `No agent "${input.to}" exists.`, {
        details: { to: input.to },
      });
    }
    if (to.goalId !== from.goalId) {
      throw new DomainError("task_mismatch", `Agent ${input.to} belongs to another goal.`, {
        details: { to: input.to },
      });
    }
    if (isTerminated(to)) {
      throw new DomainError(
        "recipient_terminated",
        `Agent ${input.to} has terminated; its inbox is closed.`,
        {
          details: { to: input.to },
        },
      );
    }
    const { SWITCHBOARD_INBOX_CAP: cap, SWITCHBOARD_INBOX_MAX_BYTES: maxBytes } = env();
    if (toInt(to.pending) >= cap) {
      throw new DomainError("inbox_full", `Agent ${input.to} has ${cap} unread messages.`, {
        details: { to: input.to, cap },
      });
    }
    // Characters stand in for bytes (LENGTH counts characters on both providers): a bound, not an account.
    if (toInt(to.pendingChars ?? 0) + input.content.length > maxBytes) {
      throw new DomainError(
        "inbox_full",
        `Agent ${input.to} has too much unread text (over ${maxBytes} characters).`,
        { details: { to: input.to, max_bytes: maxBytes } },
      );
    }
    // The event goes with the COMMIT (PostgreSQL): its append holds the goal's row lock until commit.
    const msg = await insertMessage(u, {
      goalId: from.goalId,
      recipientAgentId: to.id,
      sender: { kind: "agent", agentId: from.agentId },
      content: input.content,
    });
    const event = {
      name: "send_message",
      agentId: from.agentId,
      data: { message_id: msg.uid, from: String(from.agentId), to: String(to.id) },
    };
    const responding =
      to.leaderId === from.agentId && (toBool(to.reviewPending) || toBool(to.terminationRequested));
    // A leader answering a review appends more events: this one stays first.
    await (responding ? appendEvents : appendEventsAtCommit)(u, from.goalId, [event]);
    if (responding) {
      await leaderResponded(u, {
        goalId: from.goalId,
        leaderId: from.agentId,
        childId: to.id,
        messageId: msg.uid,
      });
    }
    return { delivered: true as const, message_id: msg.uid };
  });
}
