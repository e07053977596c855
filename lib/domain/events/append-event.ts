import type { Unit } from "@/lib/db";
import { captureEvent, notifies } from "@/lib/domain/notifications/capture";

/**
 * Append an event to a goal's log inside the caller's unit of work. The per-goal `seq` is handed out
 * by bumping `Goal.eventSeq` in the same transaction, so events commit in `seq` order and a reader
 * following `after=<seq>` never skips one (an autoincrement id could commit out of order on PostgreSQL).
 * Names follow the orchestration contract (docs/contracts.md) where it names the event (`send_message`, …).
 *
 * On PostgreSQL the bump and the insert are one statement (one round trip): the bump takes the goal's row
 * lock, which every writer of the goal waits for until this transaction commits, so the fewer round trips
 * after it, the more units of one goal commit per second (docs/database.md, "PostgreSQL").
 */
export type NewEvent = {
  goalId: number;
  name: string;
  agentId?: number | null;
  teamId?: string | null;
  data?: Record<string, unknown>;
};

export async function appendEvent(u: Unit, e: NewEvent): Promise<number> {
  const now = new Date();
  if (u.sql.postgres) {
    const row = await u.sql.get<{ seq: number }>(
      `WITH g AS (UPDATE "Goal" SET "eventSeq" = "eventSeq" + 1, "lastActivityAt" = ? WHERE id = ? RETURNING "eventSeq")
       INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "teamId", "dataJson")
       SELECT ?::int, g."eventSeq", ?::timestamp(3), ?::text, ?::int, ?::text, ?::text FROM g RETURNING seq`,
      now,
      e.goalId,
      e.goalId,
      now,
      e.name,
      e.agentId ?? null,
      e.teamId ?? null,
      JSON.stringify(e.data ?? {}),
    );
    if (!row) throw new Error(`appendEvent: goal ${e.goalId} does not exist`);
    u.notify(`goal:${e.goalId}`);
    // issue 17: an owner-facing event becomes a notification in this same transaction.
    await captureEvent(u, { ...e, seq: row.seq });
    return row.seq;
  }
  const row = await u.sql.get<{ eventSeq: number }>(
    `UPDATE "Goal" SET "eventSeq" = "eventSeq" + 1, "lastActivityAt" = ? WHERE id = ? RETURNING "eventSeq"`,
    now,
    e.goalId,
  );
  if (!row) throw new Error(`appendEvent: goal ${e.goalId} does not exist`);
  await u.sql.run(
    `INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "teamId", "dataJson") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    e.goalId,
    row.eventSeq,
    now,
    e.name,
    e.agentId ?? null,
    e.teamId ?? null,
    JSON.stringify(e.data ?? {}),
  );
  u.notify(`goal:${e.goalId}`);
  // issue 17: an owner-facing event becomes a notification in this same transaction.
  await captureEvent(u, { ...e, seq: row.eventSeq });
  return row.eventSeq;
}

/**
 * Append several events of one goal, in order, as `appendEvent` would one by one. On PostgreSQL: one
 * statement (one bump of `eventSeq` by their count, one insert from arrays).
 */
export async function appendEvents(u: Unit, goalId: number, events: Omit<NewEvent, "goalId">[]) {
  if (events.length === 0) return;
  // One by one where a notification may follow (it needs each event's seq), else one statement.
  if (!u.sql.postgres || events.length === 1 || events.some((e) => notifies(e.name))) {
    for (const e of events) await appendEvent(u, { ...e, goalId });
    return;
  }
  const now = new Date();
  const n = await u.sql.run(
    `WITH g AS (UPDATE "Goal" SET "eventSeq" = "eventSeq" + ?::int, "lastActivityAt" = ? WHERE id = ? RETURNING "eventSeq")
     INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "teamId", "dataJson")
     SELECT ?::int, g."eventSeq" - ?::int + e.ord::int, ?::timestamp(3), e.name, e."agentId", e."teamId", e."dataJson"
     FROM g, unnest(?::text[], ?::int[], ?::text[], ?::text[]) WITH ORDINALITY AS e(name, "agentId", "teamId", "dataJson", ord)`,
    events.length,
    now,
    goalId,
    goalId,
    events.length,
    now,
    events.map((e) => e.name),
    events.map((e) => e.agentId ?? null),
    events.map((e) => e.teamId ?? null),
    events.map((e) => JSON.stringify(e.data ?? {})),
  );
  if (n !== events.length) throw new Error(`appendEvents: goal ${goalId} does not exist`);
  u.notify(`goal:${goalId}`);
}

/**
 * Hot paths (`send_message`, `read_inbox`): append `events` of one goal as the unit's last statement
 * (`u.atCommit`). On PostgreSQL the sequence bump takes the goal's row lock, which every writer of the goal
 * waits for until this transaction ends; sent with the COMMIT, the lock is held for the time the server
 * takes to commit instead of a round trip to this process and back (the waits measured in BENCHMARKS.md,
 * "PostgreSQL"). Nothing later in the unit sees these events. SQLite: appended at once, as `appendEvents`.
 */
export async function appendEventsAtCommit(u: Unit, goalId: number, events: Omit<NewEvent, "goalId">[]) {
  if (events.length === 0) return;
  if (!u.sql.postgres || events.some((e) => notifies(e.name))) return appendEvents(u, goalId, events);
  const now = new Date();
  u.atCommit(
    // A missing goal fails the unit (an INSERT of no rows would not): 1 / 0 when fewer rows went in. Not a
    // constant expression, so the planner cannot fold it. (`count - n + 1` was zero only for n = 1.)
    `WITH g AS (UPDATE "Goal" SET "eventSeq" = "eventSeq" + ?::int, "lastActivityAt" = ? WHERE id = ? RETURNING "eventSeq"),
          ins AS (INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "teamId", "dataJson")
            SELECT ?::int, g."eventSeq" - ?::int + e.ord::int, ?::timestamp(3), e.name, e."agentId", e."teamId", e."dataJson"
            FROM g, unnest(?::text[], ?::int[], ?::text[], ?::text[]) WITH ORDINALITY AS e(name, "agentId", "teamId", "dataJson", ord)
            RETURNING 1)
     SELECT 1 / ((SELECT count(*) FROM ins) = ?::int)::int AS ok`,
    events.length,
    now,
    goalId,
    goalId,
    events.length,
    now,
    events.map((e) => e.name),
    events.map((e) => e.agentId ?? null),
    events.map((e) => e.teamId ?? null),
    events.map((e) => JSON.stringify(e.data ?? {})),
    events.length,
  );
  u.notify(`goal:${goalId}`);
}
