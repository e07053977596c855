import type { Unit } from "@/lib/db";
import { askOwnerDirectly } from "@/lib/domain/questions/system-question";

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
    }
  | {
      /** Issue 13: an agent was quarantined; the owner may lift it (Lift quarantine / Keep quarantined). */
      kind: "quarantine";
      goalId: number;
      agentId: number;
      /** Why, self-contained (score, domain). */
      text: string;
    }
  | {
      /** issue 12: the goal's spend crossed 80 % of its budget (once), or reached 100 % and paused it. */
      kind: "budget_alert" | "budget_paused";
      goalId: number;
      /** The coordinator (the question is about the goal's work as a whole). */
      agentId: number;
      text: string;
    };

/**
 * Puts the escalation in front of the owner as a question (lib/domain/questions/system-question.ts):
 * `root_review` as Approve / Rework (Rework requires a text), the watchdog's escalations as one free-text
 * question. The owner's answer is acted on in lib/domain/questions/system-answer.ts (docs/questions.md).
 */
export async function escalateToOwner(u: Unit, e: OwnerEscalation): Promise<void> {
  await askOwnerDirectly(u, {
    origin: e.kind,
    goalId: e.goalId,
    agentId: e.agentId,
    subjectLeaderId: e.kind === "root_review" || !("leaderId" in e) ? null : e.leaderId,
    text: e.kind === "root_review" ? e.detail : e.text,
  });
}
