import { z } from "zod";
import { write } from "@/lib/db";
import { MAX_MESSAGE_CHARS } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { escalateToOwner } from "@/lib/domain/owner-gateway";
import { DomainError } from "@/lib/errors";

export const requestTerminationInput = z.strictObject({
  detail: z.string().max(MAX_MESSAGE_CHARS).optional().describe("Optional summary of the completed work."),
});

export const requestTerminationOutput = z.object({
  recorded: z.literal(true),
  termination_requested: z.literal(true),
});

/**
 * `request_termination`: "I am truly done". Refused with `plan_incomplete` while the caller's active
 * plan has tasks that are not done or failed. Tells the leader (a system message; the owner for the root).
 */
export async function requestTermination(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof requestTerminationInput>,
) {
  return write(async (u) => {
    const me = await u.db.agent.findUniqueOrThrow({ where: { id: caller.agentId } });
    if (me.activePlanId) {
      const open = await u.db.planTask.findMany({
        where: { planId: me.activePlanId, status: { notIn: ["done", "failed"] } },
        orderBy: { position: "asc" },
        select: { key: true, status: true },
      });
      if (open.length) {
        throw new DomainError(
          "plan_incomplete",
          `Your plan still has unfinished tasks: ${open.map((t) => `${t.key} (${t.status})`).join(", ")}.`,
          {
            details: {
              plan_id: me.activePlanId,
              unfinished: open.map((t) => ({ task_id: t.key, status: t.status })),
            },
          },
        );
      }
    }
    const now = new Date();
    await u.db.agent.update({
      where: { id: me.id },
      data: {
        terminationRequested: true,
        terminationRequestedAt: now,
        termReqStage: 0,
        termReqStageAt: null,
      },
    });
    await appendEvent(u, {
      goalId: caller.goalId,
      name: "status",
      agentId: me.id,
      teamId: me.teamId,
      data: { state: "termination_requested", detail: input.detail ?? null },
    });
    const text = `[TERMINATION REQUEST] ${me.name} (agent ${me.id}) reports its work complete${input.detail ? `:\n${input.detail}` : "."}\n\nEnd it with terminate_child(agent_id="${me.id}"), or reply with send_message to keep it working.`;
    if (me.leaderId === null) {
      await escalateToOwner(u, {
        kind: "termination_escalation",
        goalId: caller.goalId,
        agentId: me.id,
        leaderId: null,
        text,
      });
    } else {
      await insertMessage(u, {
        goalId: caller.goalId,
        recipientAgentId: me.leaderId,
        sender: { kind: "agent", agentId: me.id },
        kind: "termination_request",
        content: text,
        meta: { agent_id: String(me.id) },
      });
    }
    return { recorded: true as const, termination_requested: true as const };
  });
}
