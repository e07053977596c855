import { read } from "@/lib/db";
import { isFileCiphertext } from "./crypto";
import type { ScopeType } from "./schemas";
import { ownedScope } from "./scope";

/** GET /api/secrets/:scope_type/:scope_id: the names in one of the owner's scopes, no values. */
export async function listScopeSecrets(ownerId: number, scope_type: ScopeType, scope_id: number) {
  return read(async (u) => {
    await ownedScope(u, ownerId, scope_type, scope_id);
    const rows = await u.db.secret.findMany({
      where: { ownerId, scopeType: scope_type, scopeId: scope_id },
      orderBy: { name: "asc" },
      select: { name: true, ciphertext: true, lastUsedAt: true },
    });
    return rows.map((r) => ({
      name: r.name,
      available: r.ciphertext !== null,
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
    }));
  });
}

export type SecretView = {
  name: string;
  scope: ScopeType;
  scope_id: number;
  scope_label: string;
  goal_id: number | null;
  available: boolean;
  /** `text` (an environment variable) or `file` (a 0600 file, $NAME its path); null once revoked. */
  kind: "text" | "file" | null;
  version: number;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  last_used_by: { agent_id: number; name: string | null } | null;
  revoked_at: string | null;
};

/** Every secret of the owner, by scope (user, then agents, then tasks), for the Secrets page. No values. */
export async function listOwnerSecrets(ownerId: number): Promise<SecretView[]> {
  return read(async ({ db }) => {
    const rows = await db.secret.findMany({
      where: { ownerId },
      orderBy: [{ scopeType: "desc" }, { scopeId: "asc" }, { name: "asc" }],
      select: {
        name: true,
        scopeType: true,
        scopeId: true,
        ciphertext: true,
        version: true,
        createdAt: true,
        updatedAt: true,
        lastUsedAt: true,
        lastUsedByAgentId: true,
        revokedAt: true,
      },
    });
    const agentIds = [
      ...new Set(
        rows.flatMap((r) => [
          ...(r.scopeType === "agent" ? [r.scopeId] : []),
          ...(r.lastUsedByAgentId ? [r.lastUsedByAgentId] : []),
        ]),
      ),
    ];
    const taskIds = [...new Set(rows.filter((r) => r.scopeType === "task").map((r) => r.scopeId))];
    const [agents, tasks] = await Promise.all([
      db.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true, goalId: true } }),
      db.goalTask.findMany({
        where: { id: { in: taskIds } },
        select: { id: true, title: true, goalId: true },
      }),
    ]);
    return rows.map((r): SecretView => {
      const agent = r.scopeType === "agent" ? agents.find((a) => a.id === r.scopeId) : undefined;
      const task = r.scopeType === "task" ? tasks.find((t) => t.id === r.scopeId) : undefined;
      const usedBy = r.lastUsedByAgentId ? agents.find((a) => a.id === r.lastUsedByAgentId) : undefined;
      return {
        name: r.name,
        scope: r.scopeType as ScopeType,
        scope_id: r.scopeId,
        scope_label:
          r.scopeType === "user"
            ? "all my agents"
            : agent
              ? `agent ${agent.name} (#${agent.id})`
              : `task #${r.scopeId} ${task ? `"${task.title}"` : ""}`.trim(),
        goal_id: agent?.goalId ?? task?.goalId ?? null,
        available: r.ciphertext !== null,
        kind: r.ciphertext === null ? null : isFileCiphertext(r.ciphertext) ? "file" : "text",
        version: r.version,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
        last_used_at: r.lastUsedAt?.toISOString() ?? null,
        last_used_by: r.lastUsedByAgentId
          ? { agent_id: r.lastUsedByAgentId, name: usedBy?.name ?? null }
          : null,
        revoked_at: r.revokedAt?.toISOString() ?? null,
      };
    });
  });
}
