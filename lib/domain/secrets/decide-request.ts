import { z } from "zod";
import { retryOnUniqueViolation, type Unit, write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import { DomainError } from "@/lib/errors";
import { satisfyOpenRequests } from "./satisfy-requests";
import { onePlain, plainFields, scopeType } from "./schemas";
import { ownedScope } from "./scope";
import { storeSecret } from "./store";

/** Supply: the value, and where it applies — this task, this agent, or all the owner's agents (`user`). */
/** `value` is text, or a file's bytes (a Buffer from the browser's upload, or `file_base64` in JSON). */
export const supplyInput = z
  .strictObject({ ...plainFields, scope: scopeType.default("task") })
  .transform(onePlain);
export const declineInput = z.strictObject({ reason: z.string().trim().min(1, "Give a reason.").max(2000) });

/** The owner's open request `requestId`, marked decided by this unit (exactly one decision wins). */
async function takeOpen(u: Unit, ownerId: number, requestId: number, data: Record<string, unknown>) {
  const request = owned(
    await u.db.resourceRequest.findUnique({ where: { id: requestId } }),
    (r) => r.ownerId,
    ownerId,
    `request ${requestId}`,
  );
  const won = await u.db.resourceRequest.updateMany({
    where: { id: requestId, status: "open" },
    data: { ...data, decidedAt: new Date() },
  });
  if (won.count !== 1) {
    const now = await u.db.resourceRequest.findUniqueOrThrow({
      where: { id: requestId },
      select: { status: true },
    });
    throw new DomainError("request_not_open", `Request ${requestId} is ${now.status} already.`, {
      details: { request_id: requestId, status: now.status },
    });
  }
  notifyOwner(u, ownerId);
  return request;
}

/**
 * The owner supplies the value for a request, in the scope they choose. The value is encrypted and stored;
 * the asking agent (and any other open request it answers) is told that the name reaches its next launch.
 */
export async function supplyRequest(ownerId: number, requestId: number, input: z.input<typeof supplyInput>) {
  const data = supplyInput.parse(input);
  return retryOnUniqueViolation(
    () =>
      write(async (u) => {
        const request = await takeOpen(u, ownerId, requestId, { status: "supplied", scopeType: data.scope });
        const scopeId =
          data.scope === "task" ? request.taskId : data.scope === "agent" ? request.agentId : ownerId;
        await u.db.resourceRequest.update({ where: { id: requestId }, data: { scopeId } });
        const scope = await ownedScope(u, ownerId, data.scope, scopeId);
        const stored = await storeSecret(u, scope, request.name, data.value);
        await satisfyOpenRequests(u, scope, request.name, requestId);
        return {
          request_id: requestId,
          status: "supplied" as const,
          name: stored.name,
          scope: stored.scope,
          scope_id: stored.scope_id,
          version: stored.version,
        };
      }),
    3,
  );
}

/** The owner declines a request; the reason reaches the asking agent's inbox. */
export async function declineRequest(
  ownerId: number,
  requestId: number,
  input: z.input<typeof declineInput>,
) {
  const { reason } = declineInput.parse(input);
  return write(async (u) => {
    const request = await takeOpen(u, ownerId, requestId, { status: "declined", declineReason: reason });
    await insertMessage(u, {
      goalId: request.goalId,
      recipientAgentId: request.agentId,
      sender: { kind: "user" },
      kind: "resource_declined",
      content: `The owner declined your request #${request.id} for ${request.name} (task #${request.taskId}): ${reason}`,
      meta: { request_id: request.id, name: request.name, reason },
    });
    await appendEvent(u, {
      goalId: request.goalId,
      name: "resource_declined",
      agentId: request.agentId,
      data: { request_id: request.id, name: request.name, reason },
    });
    return { request_id: request.id, status: "declined" as const };
  });
}
