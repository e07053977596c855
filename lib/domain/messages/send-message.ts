import { z } from "zod";
import { type Unit, write } from "@/lib/db";
import { type SqlBool, type SqlInt, toBool, toInt } from "@/lib/db/rows";
import { isTerminated, notTerminatedSql } from "@/lib/domain/agents/terminated";
import { MAX_MESSAGE_CHARS } from "@/lib/domain/constants";
import { appendEvents, appendEventsAtCommit } from "@/lib/domain/events/append-event";
import { leaderResponded } from "@/lib/domain/reviews/acknowledge";
import { env, isPostgres } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { idFromString, uuid } from "@/lib/ids";
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

type From = { agentId: number; goalId: number };
type Input = z.infer<typeof sendMessageInput>;

/** The recipient row (and the sender's goal's owner) with its pending count and size: one read. */
const RECIPIENT = `SELECT a.id, a."goalId", a.status, a."terminateConsumed", a."leaderId", a."reviewPending", a."terminationRequested",
                    g."ownerId", (SELECT s."ownerId" FROM "Goal" s WHERE s.id = ?) AS "senderOwnerId",
                    p.n AS pending, p.chars AS "pendingChars"
             FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId",
                  (SELECT COUNT(*) AS n, SUM(LENGTH(m.content)) AS chars FROM "Message" m
                   WHERE m."recipientAgentId" = ? AND m."consumedAt" IS NULL) p
             WHERE a.id = ?`;

/**
 * Refuse a send to `to` as the contract says, or return: `unknown_recipient`, `task_mismatch`,
 * `recipient_terminated`, `inbox_full` (count, then size). The rules that `SEND_ON_POSTGRES` repeats in SQL.
 */
function refuse(to: Recipient | undefined, from: From, input: Input): asserts to is Recipient {
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
    throw new DomainError("recipient_terminated", `Agent ${input.to} has terminated; its inbox is closed.`, {
      details: { to: input.to },
    });
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
}

/**
 * PostgreSQL, the whole send as one statement (sent with BEGIN and COMMIT: one round trip): read the
 * recipient as `RECIPIENT` does, insert the message only if every rule of `refuse` lets it through and
 * the sender is not a leader answering the recipient's review (that path appends more events: the
 * general one below), append its event (the goal's row lock is then held only while PostgreSQL commits),
 * and return the recipient row with `sent`. Nothing is written unless `sent`; the final `ok` fails the
 * statement (and so the unit) if the message went in without its event.
 */
const SEND_ON_POSTGRES = `WITH r AS (${RECIPIENT}),
  m AS (
    INSERT INTO "Message" (uid, "goalId", "recipientAgentId", "senderAgentId", "senderKind", kind, content, "createdAt")
    SELECT ?::text, r."goalId", r.id, ?::int, 'agent', 'message', ?::text, ?::timestamp(3) FROM r
    WHERE r."ownerId" = r."senderOwnerId" AND r."goalId" = ?::int AND ${notTerminatedSql("r")}
      AND r.pending < ?::int AND COALESCE(r."pendingChars", 0) + ?::int <= ?::int
      AND (r."leaderId" IS DISTINCT FROM ?::int OR NOT (r."reviewPending" OR r."terminationRequested"))
    RETURNING id),
  g AS (
    UPDATE "Goal" SET "eventSeq" = "eventSeq" + 1, "lastActivityAt" = ?
    WHERE id = ? AND EXISTS (SELECT 1 FROM m) RETURNING "eventSeq"),
  e AS (
    INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "dataJson")
    SELECT ?::int, g."eventSeq", ?::timestamp(3), 'send_message', ?::int, ?::text FROM g RETURNING 1)
  SELECT r.*, (SELECT count(*) FROM m)::int AS sent,
         1 / ((SELECT count(*) FROM e) = (SELECT count(*) FROM m))::int AS ok
  FROM r`;

/** `send_message` on PostgreSQL in one round trip; undefined when the general path must run instead. */
async function sendOnPostgres(u: Unit, from: From, toId: number, input: Input) {
  const uid = uuid();
  const now = new Date();
  const { SWITCHBOARD_INBOX_CAP: cap, SWITCHBOARD_INBOX_MAX_BYTES: maxBytes } = env();
  const data = JSON.stringify({ message_id: uid, from: String(from.agentId), to: String(toId) });
  const [to] = await u.commitWith<Recipient & { sent: number }>(
    SEND_ON_POSTGRES,
    ...[from.goalId, toId, toId], // RECIPIENT
    ...[uid, from.agentId, input.content, now], // the message
    ...[from.goalId, cap, input.content.length, maxBytes, from.agentId], // its rules
    ...[now, from.goalId], // the sequence
    ...[from.goalId, now, from.agentId, data], // the event
  );
  if (to?.sent) {
    u.notify(`agent:${toId}`);
    u.notify(`goal:${from.goalId}`);
    return { delivered: true as const, message_id: uid };
  }
  refuse(to, from, input); // nothing was written: the refusal of the general path, or…
  return undefined; // …a leader answering its child's review
}

/**
 * `send_message`: put a message in another agent's inbox. Errors: `unknown_recipient`,
 * `task_mismatch` (recipient in another goal of the same owner; another owner's agent is `unknown_recipient`),
 * `recipient_terminated`, `inbox_full` (the cap counts
 * pending messages; system messages bypass it, see `insertMessage` callers).
 * PostgreSQL: one statement (`SEND_ON_POSTGRES`), unless a leader answers its child's review.
 */
export async function sendMessage(from: From, input: Input) {
  const toId = idFromString(input.to);
  if (toId !== undefined && isPostgres()) {
    const sent = await write((u) => sendOnPostgres(u, from, toId, input));
    if (sent) return sent;
  }
  return write(async (u) => {
    const to =
      toId === undefined
        ? undefined
        : // The pending count and size ride along (one round trip; PostgreSQL pays one per statement).
          await u.sql.get<Recipient>(RECIPIENT, from.goalId, toId, toId);
    refuse(to, from, input);
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
