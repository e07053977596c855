import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";

/**
 * The one way the system (not an agent) puts something in front of the goal's owner: the root agent's
 * completion review, and the watchdog's escalations (a forgotten review, an idle agent, a forced end).
 * Agents' own questions go through `ask_user` and the leader chain instead.
 *
 * Contract between the teams code (which calls this) and the questions code (which implements it):
 * called inside the caller's write unit; must not throw for a well-formed escalation. The caller records
 * its own contract events (`review.escalated_to_user`, `status`, …); this only reaches the owner.
 */
export type OwnerEscalation =
  | {
      /** The root agent (leader = owner) called signal_review: ask the owner Approve / Rework. */
      kind: "root_review";
      goalId: number;
      /** The agent under review (the coordinator). */
      agentId: number;
      /** The signal_review detail, shown verbatim. */
      detail: string;
    }
  | {
      /** The watchdog's third step: a leader ignored a pending review / termination request, or a leaf agent is idle. */
      kind: "review_escalation" | "termination_escalation" | "idle_escalation";
      goalId: number;
      /** The agent the escalation is about (the child whose review waits, or the idle agent). */
      agentId: number;
      /** The leader that did not react (null when the owner is the leader). */
      leaderId: number | null;
      /** A plain-text prompt for the owner, self-contained. */
      text: string;
    };

/**
 * Stub until the questions feature lands: records the escalation as an event so it shows on the goal
 * page. The questions feature replaces this body with an owner question (free text, or Approve /
 * Rework for `root_review`) and handles the answer.
 */
export async function escalateToOwner(u: Unit, e: OwnerEscalation): Promise<void> {
  await appendEvent(u, {
    goalId: e.goalId,
    name: "owner_escalation",
    agentId: e.agentId,
    data: e.kind === "root_review" ? { kind: e.kind, detail: e.detail } : { kind: e.kind, text: e.text },
  });
}
