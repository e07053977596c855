import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { read, type Unit, write } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { appendEvents, appendEventsAtCommit } from "@/lib/domain/events/append-event";
import { senderLabel } from "@/lib/domain/messages/insert-message";
import { consumeTerminate } from "@/lib/domain/reviews/acknowledge";
import { env, isPostgres } from "@/lib/env";

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
 * PostgreSQL, a whole take as one statement (sent with BEGIN and COMMIT: one round trip). All its parts
 * see one snapshot, so the pending messages (`p`) are those the consume (`c`) leaves: not (delivered and
 * up to the ack). Unless the batch holds a terminate sentinel (then nothing is written and the general
 * path runs: it appends more events), it consumes up to the ack, marks the fresh messages of the batch
 * delivered (by id: exactly the ones handed out), and appends one `agent_input` event per consumed
 * message in id order (not for one a runner already reported as a turn's input: `turnStartedAt`) (the goal's row lock is then held only while PostgreSQL commits). Returns the
 * pending rows (one more than `limit`) behind a row of nulls that carries the check `ok`: it fails the
 * statement (and so the unit) if the events do not match the consumed messages.
 */
const TAKE_ON_POSTGRES = `WITH p AS (
    SELECT m.id, m.uid, m."senderKind", m."senderAgentId", s.name AS "fromName", m.kind, m.content, m."createdAt", m."deliveredAt"
    FROM "Message" m LEFT JOIN "Agent" s ON s.id = m."senderAgentId"
    WHERE m."recipientAgentId" = ?::int AND m."consumedAt" IS NULL
      AND NOT (m."deliveredAt" IS NOT NULL AND m.id <= ?::int)
    ORDER BY m.id LIMIT ?::int),
  b AS (SELECT * FROM p ORDER BY id LIMIT ?::int),
  go AS (SELECT NOT EXISTS (SELECT 1 FROM b WHERE kind = 'terminate') AS yes),
  c AS (
    UPDATE "Message" SET "consumedAt" = ?
    WHERE "recipientAgentId" = ?::int AND "consumedAt" IS NULL AND "deliveredAt" IS NOT NULL AND id <= ?::int
      AND (SELECT yes FROM go)
    RETURNING id, uid, "turnStartedAt"),
  ce AS (SELECT id, uid FROM c WHERE "turnStartedAt" IS NULL),
  d AS (
    UPDATE "Message" SET "deliveredAt" = ?
    WHERE id IN (SELECT id FROM b WHERE "deliveredAt" IS NULL) AND "deliveredAt" IS NULL AND "consumedAt" IS NULL
      AND (SELECT yes FROM go)
    RETURNING 1),
  g AS (
    UPDATE "Goal" SET "eventSeq" = "eventSeq" + (SELECT count(*) FROM ce)::int, "lastActivityAt" = ?
    WHERE id = ?::int AND EXISTS (SELECT 1 FROM ce) RETURNING "eventSeq"),
  e AS (
    INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "dataJson")
    SELECT ?::int, g."eventSeq" - x.n + x.ord, ?::timestamp(3), 'agent_input', ?::int, '{"message_id":' || to_json(x.uid)::text || '}'
    FROM g, (SELECT uid, row_number() OVER (ORDER BY id)::int AS ord, count(*) OVER ()::int AS n FROM ce) x
    RETURNING 1)
  SELECT p.*, k.* FROM (SELECT (SELECT count(*) FROM ce)::int AS inputs,
                                1 / ((SELECT count(*) FROM e) = (SELECT count(*) FROM ce))::int AS ok) k
  LEFT JOIN p ON true ORDER BY p.id NULLS FIRST`;

/** One take on PostgreSQL (`TAKE_ON_POSTGRES`); undefined when the batch holds a terminate sentinel. */
async function takeOnPostgres(
  u: Unit,
  agent: { agentId: number; goalId: number },
  ack: number,
  limit: number,
) {
  const now = new Date();
  const rows = await u.commitWith<Row & { inputs: number; ok: number }>(
    TAKE_ON_POSTGRES,
    ...[agent.agentId, ack, limit + 1, limit], // p, b
    ...[now, agent.agentId, ack], // c
    now, // d
    ...[now, agent.goalId], // g
    ...[agent.goalId, now, agent.agentId], // e
  );
  const taken = shape(
    rows.filter((r) => r.id !== null),
    limit,
  );
  if (taken.batch.some((m) => m.kind === "terminate")) return undefined; // nothing was written
  if (rows[0]?.inputs) u.notify(`goal:${agent.goalId}`); // the events

  return taken;
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
  // Message ids are 32-bit: an ack past the largest confirms everything delivered (PostgreSQL would
  // refuse the larger number; found by the fuzz test). No ack confirms nothing, as an ack of 0.
  const ack = Math.min(input.ack ?? 0, 2_147_483_647);
  const fast = isPostgres();
  const take = async () =>
    (fast && (await write((u) => takeOnPostgres(u, agent, ack, input.limit)))) ||
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
    const arrived = await waitFor<ReturnType<typeof shape> | true>({
      topics: [`agent:${agent.agentId}`],
      // PostgreSQL: a take costs what the check would (one round trip), so each check is a take.
      check: fast
        ? async () => {
            const r = await take();
            return r.batch.length > 0 ? r : undefined;
          }
        : async () => {
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
    if (arrived) result = arrived === true ? await take() : arrived;
  }
  const messages = result.batch;
  return { messages, ack: messages.at(-1)?.seq ?? input.ack ?? 0, more: result.more };
}
