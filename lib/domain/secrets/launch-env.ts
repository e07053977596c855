import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { goalTaskOr404 } from "@/lib/domain/tasks/claim-task";
import { notFound } from "@/lib/errors";
import { decryptValue } from "./crypto";
import { PRECEDENCE, type ScopeType } from "./schemas";

/**
 * The secrets of one launch of `agentId` (for `taskId`, when it runs one): an environment map
 * NAME → value with precedence task > agent > user for the same name. Revoked secrets are not delivered.
 * Each delivered secret gets `lastUsedAt` and `lastUsedByAgentId`, and one `secrets_delivered` event names
 * them (never a value). A value that fails to decrypt is `secret_undecryptable` and nothing is recorded.
 *
 * The one caller is the runner's launch job (lib/domain/runner/launch-jobs.ts), which puts the map into the
 * environment of the job it hands to the runner, and from there into the child's environment and
 * nowhere else (not in its log, not in an event, not in a message). Never expose this over MCP or REST.
 */
export async function secretsForLaunch(agentId: number, taskId?: number): Promise<Record<string, string>> {
  return write(async (u) => {
    const agent = await u.db.agent.findUnique({
      where: { id: agentId },
      select: { id: true, goalId: true, goal: { select: { ownerId: true } } },
    });
    if (!agent) throw notFound(`agent ${agentId}`);
    if (taskId !== undefined) await goalTaskOr404(u, agent.goalId, taskId);
    const ownerId = agent.goal.ownerId;
    const rows = await u.db.secret.findMany({
      where: {
        ownerId,
        ciphertext: { not: null },
        revokedAt: null,
        OR: [
          { scopeType: "user", scopeId: ownerId },
          { scopeType: "agent", scopeId: agentId },
          ...(taskId !== undefined ? [{ scopeType: "task", scopeId: taskId }] : []),
        ],
      },
    });
    const winners = new Map<string, (typeof rows)[number]>();
    for (const r of rows) {
      const held = winners.get(r.name);
      if (!held || PRECEDENCE[r.scopeType as ScopeType] > PRECEDENCE[held.scopeType as ScopeType])
        winners.set(r.name, r);
    }
    const env: Record<string, string> = {};
    for (const [name, r] of [...winners].sort(([a], [b]) => a.localeCompare(b))) {
      env[name] = decryptValue(
        {
          secretId: r.id,
          ownerId: r.ownerId,
          scopeType: r.scopeType,
          scopeId: r.scopeId,
          name,
          version: r.version,
        },
        r.ciphertext ?? "",
      );
    }
    if (winners.size > 0) {
      const ids = [...winners.values()].map((r) => r.id);
      await u.db.secret.updateMany({
        where: { id: { in: ids } },
        data: { lastUsedAt: new Date(), lastUsedByAgentId: agentId },
      });
      await appendEvent(u, {
        goalId: agent.goalId,
        name: "secrets_delivered",
        agentId,
        data: {
          task_id: taskId ?? null,
          secrets: [...winners.values()].map((r) => ({
            name: r.name,
            scope: r.scopeType,
            scope_id: r.scopeId,
          })),
        },
      });
    }
    return env;
  });
}
