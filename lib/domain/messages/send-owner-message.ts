import { z } from "zod";
import { write } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { MAX_MESSAGE_CHARS, USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { insertMessage } from "./insert-message";

export const ownerMessageInput = z.strictObject({
  agentId: z.coerce.number().int().positive().max(MAX_DB_INT),
  content: z
    .string()
    .trim()
    .min(1, "Write a message.")
    .max(MAX_MESSAGE_CHARS, `Write at most ${MAX_MESSAGE_CHARS.toLocaleString("en-US")} characters.`),
});

/**
 * The owner writes to one of their agents: an inbox message from `user` (read_inbox shows `__user__`).
 * Another owner's agent is indistinguishable from none; a terminated agent's inbox is closed.
 * Owner messages bypass the inbox cap, like the system's.
 */
export async function sendOwnerMessage(ownerId: number, input: z.input<typeof ownerMessageInput>) {
  const data = ownerMessageInput.parse(input);
  return write(async (u) => {
    const row = await u.db.agent.findUnique({
      where: { id: data.agentId },
      select: {
        id: true,
        goalId: true,
        status: true,
        terminateConsumed: true,
        goal: { select: { ownerId: true } },
      },
    });
    const agent = owned(row, (a) => a.goal.ownerId, ownerId, `agent ${data.agentId}`);
    if (isTerminated(agent)) {
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
      data: { message_id: msg.uid, from: USER_SENTINEL, to: String(agent.id) },
    });
    return { delivered: true as const, message_id: msg.uid };
  });
}
