import type { Unit } from "@/lib/db";
import { notTerminatedWhere } from "@/lib/domain/agents/terminated";

/**
 * The watchdog's idle alert (issue 16 §7, docs/decisions.md "Watchdog alerts"): when an agent's idle ladder
 * reaches the owner, the owner gets ONE card per goal listing every agent whose ladder reached them and that
 * has not moved since, with one click for all of them — nudge again, restart, terminate, or leave them —
 * instead of one free-text question per agent.
 */
export const NUDGE_AGAIN = "Nudge them again";
export const RESTART_THEM = "Restart them";
export const TERMINATE_THEM = "Terminate them";
export const LEAVE_THEM = "Leave them";

/** An agent whose idle ladder reached the owner and that made no tool call since (the alert's subject). */
export type IdleAgent = {
  id: number;
  name: string;
  goalId: number;
  teamId: string | null;
  leaderId: number | null;
  planTaskId: string | null;
  lastToolCallAt: Date | null;
  idleStageAt: Date | null;
  runStartedAt: Date | null;
  runnerManaged: boolean;
  runState: string | null;
  status: string;
  terminateConsumed: boolean;
  leaseUntil: Date | null;
};

export async function escalatedIdleAgents(u: Unit, goalId: number, also?: number): Promise<IdleAgent[]> {
  const rows = await u.db.agent.findMany({
    where: {
      goalId,
      ...notTerminatedWhere,
      OR: [{ idleStage: { gte: 3 } }, ...(also === undefined ? [] : [{ id: also }])],
    },
    select: {
      id: true,
      name: true,
      goalId: true,
      teamId: true,
      leaderId: true,
      planTaskId: true,
      lastToolCallAt: true,
      idleStageAt: true,
      runStartedAt: true,
      runnerManaged: true,
      runState: true,
      status: true,
      terminateConsumed: true,
      leaseUntil: true,
    },
    orderBy: { id: "asc" },
  });
  // Activity after the escalation (a tool call, a new launch) restarts its ladder: no longer the alert's.
  const stageAt = (a: IdleAgent) => a.idleStageAt?.getTime() ?? 0;
  return rows.filter(
    (a) =>
      a.id === also ||
      ((a.lastToolCallAt?.getTime() ?? 0) <= stageAt(a) && (a.runStartedAt?.getTime() ?? 0) <= stageAt(a)),
  );
}

/** The card's text: who is idle, for how long. */
export function idleAlertText(agents: IdleAgent[], now = new Date()): string {
  const line = (a: IdleAgent) => {
    const since = Math.max(a.lastToolCallAt?.getTime() ?? 0, a.runStartedAt?.getTime() ?? 0);
    const idle = since ? ` — no tool call for ${Math.round((now.getTime() - since) / 60_000)} min` : "";
    return `• ${a.name} (#${a.id})${idle}`;
  };
  const head =
    agents.length === 1
      ? "1 agent has made no tool call despite two nudges:"
      : `${agents.length} agents have made no tool call despite two nudges:`;
  const shown = agents.slice(0, 40).map(line);
  if (agents.length > shown.length) shown.push(`• … and ${agents.length - shown.length} more`);
  return [head, ...shown].join("\n");
}
