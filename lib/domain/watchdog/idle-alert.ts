import type { Unit } from "@/lib/db";
import { isTerminated, notTerminatedWhere } from "@/lib/domain/agents/terminated";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { LAUNCH_TOPIC } from "@/lib/domain/runner/launch-jobs";
import { endAgentAsOwner } from "@/lib/domain/runner/owner-controls";

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
type IdleAgent = {
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

/** What the owner's choice does, for every agent of the alert (a no-op for those that moved since). */
export async function onIdleDecision(
  u: Unit,
  goalId: number,
  label: string | undefined,
  subjectAgentId?: number,
): Promise<void> {
  if (label === undefined || label === LEAVE_THEM) return;
  const agents = await escalatedIdleAgents(u, goalId, subjectAgentId);
  const goal = await u.db.goal.findUnique({ where: { id: goalId }, select: { coordinatorAgentId: true } });
  const now = new Date();
  for (const a of agents) {
    if (isTerminated(a)) continue;
    if (label === NUDGE_AGAIN) {
      await insertMessage(u, {
        goalId,
        recipientAgentId: a.id,
        sender: { kind: "system" },
        kind: "watchdog",
        content:
          "[WATCHDOG] The owner asks you to carry on: continue your task, call signal_review with [REVIEW REQUIRED] if it is done, or ask your leader if you are stuck.",
        meta: { about: "idle", by: USER_SENTINEL },
      });
      // The ladder starts again from here (two nudges, then the owner).
      await u.db.agent.update({ where: { id: a.id }, data: { idleStage: 0, idleStageAt: now } });
      await appendEvent(u, {
        goalId,
        name: "watchdog.idle_nudge",
        agentId: a.id,
        data: { by: USER_SENTINEL },
      });
    } else if (label === RESTART_THEM && a.runnerManaged) {
      // A new launch (its runner's next renewal of the old one answers kill); the session resumes.
      await u.db.agent.update({
        where: { id: a.id },
        data: {
          runState: "queued",
          leaseUntil: null,
          crashStreak: 0,
          relaunchAt: null,
          idleStage: 0,
          idleStageAt: now,
        },
      });
      await appendEvent(u, {
        goalId,
        name: "agent_restart_requested",
        agentId: a.id,
        data: { from: a.runState, by: USER_SENTINEL, reason: "idle" },
      });
      u.notify(LAUNCH_TOPIC);
    } else if (label === TERMINATE_THEM && a.id !== goal?.coordinatorAgentId) {
      await endAgentAsOwner(u, a);
    }
  }
}
