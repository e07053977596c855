import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { escalateToOwner, type OwnerEscalation } from "@/lib/domain/owner-gateway";
import { consumeTerminate } from "@/lib/domain/reviews/acknowledge";
import type { Candidate } from "./candidates";
import type { WatchdogTimings } from "./timings";

/**
 * The watchdog's rules: for one agent, at time `now`, the step of each ladder that is due, as a unit of
 * work to run (lib/jobs decides when and which). Every step is a conditional update of the agent's
 * ladder stage, so two overlapping passes, or two instances, never take one step twice.
 *
 *   review pending → ping #1 to the leader after reviewPingS, ping #2 after as long again, then the owner;
 *   termination requested → the same ladder;
 *   idle leaf agent (running, and no tool call for idleNudgeS) → nudge #1, #2 every reviewPingS, then the owner;
 *   terminate sentinel unread after terminateGraceS → ended (`terminate.forced`, reason `watchdog_grace`).
 *
 * `now` is the caller's clock: production passes the wall clock, tests a clock they advance.
 */
export type Step = (u: Unit) => Promise<boolean>;

const ms = (d: Date | null) => (d === null ? 0 : d.getTime());

/** The next step of a ladder, if it is due: 1 and 2 are pings, 3 is the escalation (to the owner; a question: one hop up). */
export function due(
  stage: number,
  startedAt: number,
  stageAt: number,
  now: Date,
  firstS: number,
  everyS: number,
) {
  if (stage >= 3) return undefined;
  const since = stage === 0 ? startedAt : stageAt;
  const wait = (stage === 0 ? firstS : everyS) * 1000;
  return now.getTime() - since >= wait ? stage + 1 : undefined;
}

/** One rung of a ladder: pings #1 and #2 are a watchdog message and an event; #3 goes to the owner. */
type Ladder = {
  /** The Agent columns holding the ladder's stage (and `<stage>At`). */
  stage: "reviewStage" | "termReqStage" | "idleStage";
  /** The flag that must still be set for the step to apply. */
  flag?: "reviewPending" | "terminationRequested";
  ping: {
    to: number;
    content: string;
    meta: Record<string, unknown>;
    event: string;
    eventAgentId: number;
    data: Record<string, unknown>;
  };
  escalation: OwnerEscalation;
  escalated: { event: string; data: Record<string, unknown> };
};

/**
 * Take step `next` of agent `a`'s ladder (a conditional UPDATE from stage `from`, so two watchdogs cannot
 * both take it) and do what the step says.
 */
function climb(a: Candidate, now: Date, from: number, next: number, l: Ladder): Step {
  return async (u: Unit) => {
    const taken = await u.sql.run(
      `UPDATE "Agent" SET "${l.stage}" = ?, "${l.stage}At" = ? WHERE id = ? AND "${l.stage}" = ?${l.flag ? ` AND "${l.flag}" = ?` : ""}`,
      next,
      now,
      a.id,
      from,
      ...(l.flag ? [true] : []),
    );
    if (!taken) return false;
    if (next < 3) {
      const p = l.ping;
      await insertMessage(u, {
        goalId: a.goalId,
        recipientAgentId: p.to,
        sender: { kind: "system" },
        kind: "watchdog",
        content: p.content,
        meta: p.meta,
      });
      await appendEvent(u, { goalId: a.goalId, name: p.event, agentId: p.eventAgentId, data: p.data });
    } else {
      await escalateToOwner(u, l.escalation);
      await appendEvent(u, {
        goalId: a.goalId,
        name: l.escalated.event,
        agentId: a.id,
        data: l.escalated.data,
      });
    }
    return true;
  };
}

/** A pending review the leader has not answered. */
export function reviewStep(a: Candidate, now: Date, t: WatchdogTimings): Step | undefined {
  if (!a.reviewPending || a.leaderId === null) return undefined;
  const leaderId = a.leaderId;
  const p = t.reviewPingS;
  const next = due(a.reviewStage, ms(a.reviewPendingAt), ms(a.reviewStageAt), now, p, p);
  if (!next) return undefined;
  const warn = next === 2 ? ` This is ping #2: it will be escalated to the owner in ~${p} s.` : "";
  return climb(a, now, a.reviewStage, next, {
    stage: "reviewStage",
    flag: "reviewPending",
    ping: {
      to: leaderId,
      content: `[WATCHDOG] ${a.name} (agent ${a.id}) is waiting for your review.${warn} Approve with terminate_child(agent_id="${a.id}") or ask for rework with send_message.`,
      meta: { ping: next, agent_id: String(a.id), about: "review" },
      event: "watchdog.review_ping",
      eventAgentId: leaderId,
      data: { ping: next, child: String(a.id) },
    },
    escalation: {
      kind: "review_escalation",
      goalId: a.goalId,
      agentId: a.id,
      leaderId,
      text: `Agent ${a.name} (#${a.id}) has waited for a review by its leader (agent #${leaderId}) through two reminders. Please look at its review and tell the leader what to do.`,
    },
    escalated: {
      event: "review.escalated_to_user",
      data: { reason: "leader_unresponsive", leader: String(leaderId) },
    },
  });
}

/** A termination request the leader has not acted on: the same ladder. */
export function terminationRequestStep(a: Candidate, now: Date, t: WatchdogTimings): Step | undefined {
  if (!a.terminationRequested || a.leaderId === null) return undefined;
  const leaderId = a.leaderId;
  const p = t.reviewPingS;
  const next = due(a.termReqStage, ms(a.terminationRequestedAt), ms(a.termReqStageAt), now, p, p);
  if (!next) return undefined;
  return climb(a, now, a.termReqStage, next, {
    stage: "termReqStage",
    flag: "terminationRequested",
    ping: {
      to: leaderId,
      content: `[WATCHDOG] ${a.name} (agent ${a.id}) asked to be terminated and waits for you.${next === 2 ? ` Ping #2: escalating to the owner in ~${p} s.` : ""} End it with terminate_child(agent_id="${a.id}") or reply with send_message.`,
      meta: { ping: next, agent_id: String(a.id), about: "termination_request" },
      event: "watchdog.termination_ping",
      eventAgentId: leaderId,
      data: { ping: next, child: String(a.id) },
    },
    escalation: {
      kind: "termination_escalation",
      goalId: a.goalId,
      agentId: a.id,
      leaderId,
      text: `Agent ${a.name} (#${a.id}) asked to be terminated; its leader (agent #${leaderId}) has not acted through two reminders.`,
    },
    escalated: {
      event: "termination.escalated_to_user",
      data: { reason: "leader_unresponsive", leader: String(leaderId) },
    },
  });
}

/**
 * When a running agent's idleness starts counting, or undefined for an agent that is not running (issue 11):
 * a runner-managed agent counts only while a launch runs, from that launch (or its last tool call since); an
 * agent started elsewhere (registered with its own key) counts from its last tool call — until it has made
 * one, nobody has started it. A queued, crashed or exited agent, or one nobody launched, is not idle.
 */
export function idleSince(a: Candidate): number | undefined {
  if (a.runnerManaged) {
    if (a.runState !== "running" || !a.runStartedAt) return undefined;
    return Math.max(ms(a.lastToolCallAt), ms(a.runStartedAt));
  }
  return a.lastToolCallAt ? ms(a.lastToolCallAt) : undefined;
}

/** A running leaf agent without a tool call for a while: nudge it twice, then tell the owner. */
export function idleStep(a: Candidate, now: Date, t: WatchdogTimings): Step | undefined {
  if (!a.leaf || a.reviewPending || a.terminationRequested) return undefined;
  const activity = idleSince(a);
  if (activity === undefined) return undefined;
  // Activity after the last step restarts the ladder.
  const stage = a.idleStage > 0 && activity > ms(a.idleStageAt) ? 0 : a.idleStage;
  const p = t.reviewPingS;
  const next = due(stage, activity, ms(a.idleStageAt), now, t.idleNudgeS, p);
  if (!next) return undefined;
  const idleS = Math.round((now.getTime() - activity) / 1000);
  return climb(a, now, a.idleStage, next, {
    stage: "idleStage",
    ping: {
      to: a.id,
      content: `[WATCHDOG] No tool call from you for ${idleS} s. If your task is done, call signal_review with [REVIEW REQUIRED]; if you are stuck, ask your leader (send_message or ask_user).${next === 2 ? ` Nudge #2: the owner will be told in ~${p} s.` : ""}`,
      meta: { nudge: next, about: "idle" },
      event: "watchdog.idle_nudge",
      eventAgentId: a.id,
      data: { nudge: next, idle_s: idleS },
    },
    escalation: {
      kind: "idle_escalation",
      goalId: a.goalId,
      agentId: a.id,
      leaderId: a.leaderId,
      text: `Agent ${a.name} (#${a.id}) has made no tool call for ${idleS} s despite two nudges.`,
    },
    escalated: { event: "idle.escalated_to_user", data: { idle_s: idleS } },
  });
}

/** A terminate sentinel not read within the grace period: end the agent. */
export function terminateGraceStep(a: Candidate, now: Date, t: WatchdogTimings): Step | undefined {
  if (!a.terminatePostedAt) return undefined;
  if (now.getTime() - ms(a.terminatePostedAt) < t.terminateGraceS * 1000) return undefined;
  return async (u: Unit) => {
    if (!(await consumeTerminate(u, { agentId: a.id, goalId: a.goalId }, "watchdog_grace"))) return false;
    await appendEvent(u, {
      goalId: a.goalId,
      name: "terminate.forced",
      agentId: a.id,
      teamId: a.teamId,
      data: { reason: "watchdog_grace" },
    });
    return true;
  };
}
