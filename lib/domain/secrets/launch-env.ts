import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { goalTaskOr404 } from "@/lib/domain/tasks/claim-task";
import { notFound } from "@/lib/errors";
import { decryptValue } from "./crypto";
import { PRECEDENCE, type ScopeType } from "./schemas";

/** What one launch gets: text secrets as environment variables, file secrets as bytes (base64) by name. */
export type LaunchSecrets = { env: Record<string, string>; files: Record<string, string> };

/**
 * The secrets of one launch of `agentId` (for `taskId`, when it runs one): text values as an environment
 * map NAME → value, file values as NAME → base64 of the bytes (the runner writes each to a 0600 file and
 * sets $NAME to its path: docs/secrets.md, "Files"), with precedence task > agent > user for the same name
 * (whatever the kinds). Revoked secrets are not delivered.
 * Each delivered secret gets `lastUsedAt` and `lastUsedByAgentId`, and one `secrets_delivered` event names
 * them (never a value). A value that fails to decrypt is `secret_undecryptable` and nothing is recorded.
 *
 * The one caller is the runner's launch job (lib/domain/runner/launch-jobs.ts), which puts the map into the
 * environment of the job it hands to the runner, and from there into the child's environment and
 * nowhere else (not in its log, not in an event, not in a message). Never expose this over MCP or REST.
 */
export async function secretsForLaunch(agentId: number, taskId?: number): Promise<LaunchSecrets> {
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
    const files: Record<string, string> = {};
    for (const [name, r] of [...winners].sort(([a], [b]) => a.localeCompare(b))) {
      const value = decryptValue(
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
      if (typeof value === "string") env[name] = value;
      else files[name] = value.toString("base64");
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
    return { env, files };
  });
}
