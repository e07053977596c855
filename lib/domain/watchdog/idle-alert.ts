import type { Unit } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { LAUNCH_TOPIC } from "@/lib/domain/runner/launch-jobs";
import { endAgentAsOwner } from "@/lib/domain/runner/owner-controls";
import {
  escalatedIdleAgents,
  LEAVE_THEM,
  NUDGE_AGAIN,
  RESTART_THEM,
  TERMINATE_THEM,
} from "./idle-alert-card";

/**
 * What the owner's choice on the idle card (./idle-alert-card.ts) does, for every agent of the alert (a
 * no-op for those that moved since). Apart from the card because it reaches the runner and teams code.
 */
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
