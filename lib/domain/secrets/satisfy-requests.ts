import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { notifyOwner } from "@/lib/domain/owners/inbox";
import type { ScopeInfo } from "./scope";

const scopeLabel = (s: ScopeInfo) =>
  s.scopeType === "user"
    ? "for all agents of its owner"
    : s.scopeType === "agent"
      ? "for you"
      : `for task #${s.scopeId}`;

/**
 * A value for `name` now exists in `scope`: every open request it answers (the owner's for that name, of
 * the agent or task the scope covers) is marked supplied, and each asking agent is told in its inbox that
 * the name reaches the environment of its next launch (a running process's environment cannot change;
 * docs/secrets.md, "Delivery"). `alreadyClosed` is a request the caller has just marked supplied itself.
 */
export async function satisfyOpenRequests(u: Unit, scope: ScopeInfo, name: string, alreadyClosed?: number) {
  const open = await u.db.resourceRequest.findMany({
    where: {
      ownerId: scope.ownerId,
      name,
      OR: [{ status: "open" }, ...(alreadyClosed ? [{ id: alreadyClosed }] : [])],
      ...(scope.scopeType === "agent" ? { agentId: scope.scopeId } : {}),
      ...(scope.scopeType === "task" ? { taskId: scope.scopeId } : {}),
    },
    orderBy: { id: "asc" },
  });
  const now = new Date();
  for (const r of open) {
    if (r.id !== alreadyClosed) {
      const won = await u.db.resourceRequest.updateMany({
        where: { id: r.id, status: "open" },
        data: { status: "supplied", scopeType: scope.scopeType, scopeId: scope.scopeId, decidedAt: now },
      });
      if (won.count !== 1) continue;
      notifyOwner(u, scope.ownerId);
    }
    await insertMessage(u, {
      goalId: r.goalId,
      recipientAgentId: r.agentId,
      sender: { kind: "system" },
      kind: "resource_available",
      content: [
        `${name} is now available ${scopeLabel(scope)} (your request #${r.id} for task #${r.taskId}).`,
        `It is in the environment of your next launch as $${name}; the process running now does not have it.`,
        "To use it now, finish or checkpoint your current step, then ask your leader for a restart (send_message).",
      ].join(" "),
      meta: { request_id: r.id, name, scope: scope.scopeType, scope_id: scope.scopeId },
    });
    await appendEvent(u, {
      goalId: r.goalId,
      name: "resource_supplied",
      agentId: r.agentId,
      data: { request_id: r.id, name, scope: scope.scopeType, scope_id: scope.scopeId },
    });
  }
}
