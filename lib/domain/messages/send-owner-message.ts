import { z } from "zod";
import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { DomainError, notFound } from "@/lib/errors";
import { insertMessage } from "./insert-message";
import { MAX_MESSAGE_CHARS } from "./send-message";

export const ownerMessageInput = z.strictObject({
  agentId: z.coerce.number().int().positive(),
  content: z.string().trim().min(1).max(MAX_MESSAGE_CHARS),
});

/**
 * The owner writes to one of their agents: an inbox message from `user` (read_inbox shows `__user__`).
 * Another owner's agent is indistinguishable from none; a terminated agent's inbox is closed.
 * Owner messages bypass the inbox cap, like the system's.
 */
export async function sendOwnerMessage(ownerId: number, input: z.input<typeof ownerMessageInput>) {
  const data = ownerMessageInput.parse(input);
  return write(async (u) => {
    const agent = await u.db.agent.findUnique({
      where: { id: data.agentId },
      select: {
        id: true,
        goalId: true,
        status: true,
        terminateConsumed: true,
        goal: { select: { ownerId: true } },
      },
    });
    if (!agent || agent.goal.ownerId !== ownerId) throw notFound(`agent ${data.agentId}`);
    if (agent.status === "terminated" || agent.terminateConsumed) {
      throw new DomainError("recipient_terminated", `Agent ${agent.id} has terminated; its inbox is closed.`);
    }
    const msg = await insertMessage(u, {
      goalId: agent.goalId,
      recipientAgentId: agent.id,
      sender: { kind: "user" },
      content: data.content,
    });
    await appendEvent(u, {
      goalId: agent.goalId,
      name: "send_message",
      agentId: null,
      data: { message_id: msg.uid, from: "__user__", to: String(agent.id) },
    });
    return { delivered: true as const, message_id: msg.uid };
  });
}
