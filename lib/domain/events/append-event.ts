import type { Unit } from "@/lib/db";
import { captureEvent } from "@/lib/domain/notifications/capture";

/**
 * Append an event to a goal's log inside the caller's unit of work. The per-goal `seq` is handed out
 * by bumping `Goal.eventSeq` in the same transaction, so events commit in `seq` order and a reader
 * following `after=<seq>` never skips one (an autoincrement id could commit out of order on PostgreSQL).
 * Names follow the orchestration contract (docs/contracts.md) where it names the event (`send_message`, …).
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
