import type { ReadUnit } from "@/lib/db";
import { notTerminatedSql } from "@/lib/domain/agents/terminated";

/** An agent the watchdog looks at: one that has not terminated, in a goal still under way. */
export type Candidate = {
  id: number;
  goalId: number;
  leaderId: number | null;
  name: string;
  teamId: string | null;
  createdAt: Date | string;
  lastToolCallAt: Date | string | null;
  reviewPending: boolean | number;
  reviewPendingAt: Date | string | null;
  reviewStage: number;
  reviewStageAt: Date | string | null;
  terminationRequested: boolean | number;
  terminationRequestedAt: Date | string | null;
  termReqStage: number;
  termReqStageAt: Date | string | null;
  idleStage: number;
  idleStageAt: Date | string | null;
  terminatePostedAt: Date | string | null;
  /** Leads nobody (no follower, no team): only leaves can be idle. */
  leaf: number | boolean;
};

/** Every agent the watchdog watches, with its ladders. */
export function watchdogCandidates(u: ReadUnit): Promise<Candidate[]> {
  return u.sql.all<Candidate>(
    `SELECT a.id, a."goalId", a."leaderId", a.name, a."teamId", a."createdAt", a."lastToolCallAt",
            a."reviewPending", a."reviewPendingAt", a."reviewStage", a."reviewStageAt",
            a."terminationRequested", a."terminationRequestedAt", a."termReqStage", a."termReqStageAt",
            a."idleStage", a."idleStageAt", a."terminatePostedAt",
            CASE WHEN EXISTS (SELECT 1 FROM "Agent" c WHERE c."leaderId" = a.id)
                   OR EXISTS (SELECT 1 FROM "Team" t WHERE t."leaderId" = a.id) THEN 0 ELSE 1 END AS leaf
     FROM "Agent" a JOIN "Goal" g ON g.id = a."goalId"
     WHERE ${notTerminatedSql("a")} AND g.status NOT IN ('completed', 'cancelled')`,
  );
}
