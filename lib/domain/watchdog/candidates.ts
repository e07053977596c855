import type { ReadUnit } from "@/lib/db";
import { type SqlBool, type SqlDate, toBool, toDate } from "@/lib/db/rows";
import { notTerminatedSql } from "@/lib/domain/agents/terminated";

/** An agent the watchdog looks at: one that has not terminated, in a goal still under way. */
export type Candidate = {
  id: number;
  goalId: number;
  leaderId: number | null;
  name: string;
  teamId: string | null;
  createdAt: Date;
  lastToolCallAt: Date | null;
  reviewPending: boolean;
  reviewPendingAt: Date | null;
  reviewStage: number;
  reviewStageAt: Date | null;
  terminationRequested: boolean;
  terminationRequestedAt: Date | null;
  termReqStage: number;
  termReqStageAt: Date | null;
  idleStage: number;
  idleStageAt: Date | null;
  terminatePostedAt: Date | null;
  /** Started by a runner (issue 11), its run state and when its current launch reported running. */
  runnerManaged: boolean;
  runState: string | null;
  runStartedAt: Date | null;
  /** Leads nobody (no follower, no team): only leaves can be idle. */
  leaf: boolean;
};

/** The SQL row of a candidate: its dates and flags as the provider returns them. */
type Row = {
  [K in keyof Candidate]: Candidate[K] extends Date
    ? SqlDate
    : Candidate[K] extends Date | null
      ? SqlDate | null
      : Candidate[K] extends boolean
        ? SqlBool
        : Candidate[K];
};

const date = (v: SqlDate | null) => (v === null ? null : toDate(v));

/**
 * Every agent the watchdog watches, with its ladders. Hand-written SQL: the watchdog scan is a hot path
 * and a read across tables (docs/database.md).
 */
export async function watchdogCandidates(u: ReadUnit): Promise<Candidate[]> {
  const rows = await u.sql.all<Row>(
    `SELECT a.id, a."goalId", a."leaderId", a.name, a."teamId", a."createdAt", a."lastToolCallAt",
            a."reviewPending", a."reviewPendingAt", a."reviewStage", a."reviewStageAt",
            a."terminationRequested", a."terminationRequestedAt", a."termReqStage", a."termReqStageAt",
            a."idleStage", a."idleStageAt", a."terminatePostedAt",
            a."runnerManaged", a."runState", a."runStartedAt",
            CASE WHEN EXISTS (SELECT 1 FROM "Agent" c WHERE c."leaderId" = a.id)
                   OR EXISTS (SELECT 1 FROM "Team" t WHERE t."leaderId" = a.id) THEN 0 ELSE 1 END AS leaf
     FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId"
     WHERE ${notTerminatedSql("a")} AND g.status NOT IN ('completed', 'cancelled')`,
  );
  return rows.map((r) => ({
    ...r,
    createdAt: toDate(r.createdAt),
    lastToolCallAt: date(r.lastToolCallAt),
    reviewPending: toBool(r.reviewPending),
    reviewPendingAt: date(r.reviewPendingAt),
    reviewStageAt: date(r.reviewStageAt),
    terminationRequested: toBool(r.terminationRequested),
    terminationRequestedAt: date(r.terminationRequestedAt),
    termReqStageAt: date(r.termReqStageAt),
    idleStageAt: date(r.idleStageAt),
    terminatePostedAt: date(r.terminatePostedAt),
    runnerManaged: toBool(r.runnerManaged),
    runStartedAt: date(r.runStartedAt),
    leaf: toBool(r.leaf),
  }));
}
