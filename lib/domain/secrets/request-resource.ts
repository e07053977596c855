import { z } from "zod";
import { write } from "@/lib/db";
import { postToGoalChannel, requestsChannelId } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { lockGoal } from "@/lib/domain/goals/lock-goal";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import { goalTaskOr404 } from "@/lib/domain/tasks/claim-task";
import { MAX_DB_INT } from "@/lib/ids";
import { RESOURCE_TYPES, secretName } from "./schemas";

export const requestResourceInput = z.strictObject({
  name: secretName,
  resource_type: z.enum(RESOURCE_TYPES),
  reason: z.string().trim().min(5).max(2000),
  task_id: z.number().int().positive().max(MAX_DB_INT),
});

export const requestResourceOutput = z.object({
  request_id: z.number().int(),
  request_message_id: z.number().int(),
});

/**
 * `request_resource`: ask the goal's owner for a named value for a task of the caller's goal. Writes the
 * request and a structured post in `#requests` (and a line in the goal channel). The same open request
 * (same agent, name and task) again returns the existing one, so a retry after a restart asks once.
 */
export async function requestResource(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof requestResourceInput>,
) {
  return write(async (u) => {
    // Lock the goal row: identical concurrent requests queue here (PostgreSQL) and the second finds the first.
    await lockGoal(u, caller.goalId);
    const task = await goalTaskOr404(u, caller.goalId, input.task_id);
    const existing = await u.db.resourceRequest.findFirst({
      where: { agentId: caller.agentId, name: input.name, taskId: task.id, status: "open" },
    });
    if (existing?.messageId) return { request_id: existing.id, request_message_id: existing.messageId };
    const goal = await u.db.goal.findUniqueOrThrow({
      where: { id: caller.goalId },
      select: { ownerId: true, title: true },
    });
    const request = await u.db.resourceRequest.create({
      data: {
        goalId: caller.goalId,
        ownerId: goal.ownerId,
        agentId: caller.agentId,
        taskId: task.id,
        name: input.name,
        resourceType: input.resource_type,
        reason: input.reason,
      },
    });
    const message = await insertMessage(u, {
      goalId: caller.goalId,
      channelId: await requestsChannelId(u),
      sender: { kind: "agent", agentId: caller.agentId },
      kind: "resource_request",
      content: `Agent #${caller.agentId} asks for ${input.name} (${input.resource_type}) for task #${task.id} "${task.title}": ${input.reason}`,
      meta: {
        request_id: request.id,
        name: input.name,
        resource_type: input.resource_type,
        task_id: task.id,
        reason: input.reason,
      },
    });
    await u.db.resourceRequest.update({ where: { id: request.id }, data: { messageId: message.id } });
    notifyOwner(u, goal.ownerId);
    await appendEvent(u, {
      goalId: caller.goalId,
      name: "resource_requested",
      agentId: caller.agentId,
      data: {
        request_id: request.id,
        name: input.name,
        resource_type: input.resource_type,
        task_id: task.id,
      },
    });
    await postToGoalChannel(
      u,
      caller.goalId,
      `Agent #${caller.agentId} asked the owner for ${input.name} (task #${task.id}); see #requests.`,
      { request_id: request.id },
    );
    return { request_id: request.id, request_message_id: message.id };
  });
}
