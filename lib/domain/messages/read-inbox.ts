import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { read, type Unit, write } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { appendEvents, appendEventsAtCommit } from "@/lib/domain/events/append-event";
import { senderLabel } from "@/lib/domain/messages/insert-message";
import { consumeTerminate } from "@/lib/domain/reviews/acknowledge";
import { env } from "@/lib/env";

export const readInboxInput = z.strictObject({
  ack: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("The `ack` value from your previous read_inbox: confirms you received those messages."),
  wait_seconds: z
    .number()
    .min(0)
    .max(600)
    .default(0)
    .describe("Wait up to this long for a message when the inbox is empty (capped by the server)."),
  limit: z.number().int().min(1).max(100).default(50),
});

export const inboxMessage = z.object({
  message_id: z.string(),
  seq: z.number().int(),
  from: z.string(),
  from_name: z.string().nullable(),
  kind: z.string(),
  content: z.string(),
  created_at: z.string(),
});

export const readInboxOutput = z.object({
  messages: z.array(inboxMessage),
  ack: z.number().int(),
  more: z.boolean(),
});

/** Hand-written SQL: read_inbox is a hot path (docs/database.md). */
type Row = {
  id: number;
  uid: string;
  senderKind: string;
  senderAgentId: number | null;
  fromName: string | null;
  kind: string;
  content: string;
  createdAt: SqlDate;
  deliveredAt: SqlDate | null;
};

/**
 * Mark delivered messages up to `ack` consumed; returns their `agent_input` events, which the caller
 * appends last (the append takes the goal's row lock until commit: docs/database.md, "PostgreSQL"). A
 * message a runner already reported as a turn's input (`turnStartedAt`) has its event already.
 */
async function consumeThrough(u: Unit, agent: { agentId: number; goalId: number }, ack: number) {
  const consumed = await u.sql.all<{ id: number; uid: string; turnStartedAt: SqlDate | null }>(
    `UPDATE "Message" SET "consumedAt" = ?
     WHERE "recipientAgentId" = ? AND "consumedAt" IS NULL AND "deliveredAt" IS NOT NULL AND id <= ?
     RETURNING id, uid, "turnStartedAt"`,
    new Date(),
    agent.agentId,
    // Message ids are 32-bit: an ack past the largest confirms everything delivered (PostgreSQL would
    // refuse the larger number; found by the fuzz test).
    Math.min(ack, 2_147_483_647),
  );
  // RETURNING has no order of its own: the events follow the messages' order.
  consumed.sort((a, b) => Number(a.id) - Number(b.id));
  return consumed
    .filter((m) => m.turnStartedAt === null)
    .map((m) => ({
      name: "agent_input",
      agentId: agent.agentId,
      data: { message_id: m.uid },
    }));
}

/** The oldest pending messages (one more than `limit`, to tell whether there are more). */
function selectPending(u: Unit, agentId: number, limit: number): Promise<Row[]> {
  return u.sql.all<Row>(
    `SELECT m.id, m.uid, m."senderKind", m."senderAgentId", s.name AS "fromName", m.kind, m.content, m."createdAt", m."deliveredAt"
     FROM "Message" m LEFT JOIN "Agent" s ON s.id = m."senderAgentId"
     WHERE m."recipientAgentId" = ? AND m."consumedAt" IS NULL
     ORDER BY m.id LIMIT ?`,
    agentId,
    limit + 1,
  );
}

/** Mark the handed-out messages up to `last` delivered (they stay pending until acked). */
async function markDelivered(u: Unit, agentId: number, last: number | undefined) {
  if (last === undefined) return;
  await u.sql.run(
    `UPDATE "Message" SET "deliveredAt" = ? WHERE "recipientAgentId" = ? AND "consumedAt" IS NULL AND "deliveredAt" IS NULL AND id <= ?`,
    new Date(),
    agentId,
    last,
  );
}

/** The batch handed out, and the id of its last message not delivered before (to mark). */
function shape(rows: Row[], limit: number) {
  const batch = rows.slice(0, limit);
  return {
    more: rows.length > limit,
    lastFresh: batch.filter((r) => r.deliveredAt === null).at(-1)?.id,
    batch: batch.map((r) => ({
      message_id: r.uid,
      seq: Number(r.id),
      from: senderLabel(r.senderKind, r.senderAgentId),
      from_name: r.fromName,
      kind: r.kind,
      content: r.content,
      created_at: toIso(r.createdAt),
    })),
  };
}

/**
 * `read_inbox`: at-least-once delivery. Messages come oldest first and stay pending until the agent
 * proves it received them by passing the returned `ack` on its next read (a response lost on a dropped
 * connection is simply handed out again). With `wait_seconds`, an empty inbox waits for the next
 * message (woken by the bus, re-checking the database every second) and reports progress meanwhile.
 */
export async function readInbox(
  agent: { agentId: number; goalId: number },
  input: z.infer<typeof readInboxInput>,
  opts: { signal?: AbortSignal; onProgress?: (elapsedMs: number) => void } = {},
) {
  const take = () =>
    write(async (u) => {
      // Statements issued together run in the order issued (PostgreSQL: one round trip per group, the
      // pipeline of lib/db): the SELECT sees the acknowledged messages consumed. The events go last, with
      // the COMMIT: their append holds the goal's row lock until commit (docs/database.md, "PostgreSQL").
      const [events, rows] = await Promise.all([
        input.ack === undefined ? [] : consumeThrough(u, agent, input.ack),
        selectPending(u, agent.agentId, input.limit),
      ]);
      const taken = shape(rows, input.limit);
      // A terminate sentinel appends more events: these stay first.
      const terminating = taken.batch.some((m) => m.kind === "terminate");
      await Promise.all([
        markDelivered(u, agent.agentId, taken.lastFresh),
        (terminating ? appendEvents : appendEventsAtCommit)(u, agent.goalId, events),
      ]);
      if (terminating) await consumeTerminate(u, agent, "read");
      return taken;
    });
  let result = await take();
  const waitMs = Math.min(input.wait_seconds, env().SWITCHBOARD_MAX_WAIT_S) * 1000;
  if (result.batch.length === 0 && waitMs > 0) {
    const arrived = await waitFor({
      topics: [`agent:${agent.agentId}`],
      check: async () => {
        const row = await read(({ sql }) =>
          sql.get<{ x: number }>(
            `SELECT 1 AS x FROM "Message" WHERE "recipientAgentId" = ? AND "consumedAt" IS NULL LIMIT 1`,
            agent.agentId,
          ),
        );
        return row ? true : undefined;
      },
      timeoutMs: waitMs,
      signal: opts.signal,
      tickMs: env().SWITCHBOARD_PROGRESS_EVERY_S * 1000,
      onTick: opts.onProgress,
    });
    if (arrived) result = await take();
  }
  const messages = result.batch;
  return { messages, ack: messages.at(-1)?.seq ?? input.ack ?? 0, more: result.more };
}
