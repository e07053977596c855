import { read, write } from "@/lib/db";
import { owned } from "@/lib/domain/goals/owned";

/**
 * An agent's API keys as its owner sees them (issue 16 §2: per-key revoke in the UI): prefix, created, last
 * used, revoked; never the secret (only its hash is stored). Another owner's agent, or none: `not_found`.
 */
export async function listAgentKeys(ownerId: number, agentId: number) {
  const keys = await read(async ({ db }) => {
    const agent = await db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
    owned(agent, (a) => a.goal.ownerId, ownerId, `agent ${agentId}`);
    return db.apiKey.findMany({ where: { agentId }, orderBy: { id: "asc" } });
  });
  return keys.map((k) => ({
    key_id: k.id,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * The owner revokes one key of one of their agents: its next call is `unauthorized`; the agent's other keys
 * keep working. Revoking a revoked key changes nothing. A key of another owner's agent, or of another agent
 * than the one named, is `not_found`.
 */
export async function revokeAgentKey(ownerId: number, agentId: number, keyId: number) {
  return write(async ({ db }) => {
    const key = await db.apiKey.findUnique({
      where: { id: keyId },
      include: { agent: { include: { goal: true } } },
    });
    const mine = owned(
      key?.agentId === agentId ? key : null,
      (k) => k.agent.goal.ownerId,
      ownerId,
      `key ${keyId} of agent ${agentId}`,
    );
    if (mine.revokedAt) return { key_id: mine.id, revoked_at: mine.revokedAt.toISOString() };
    const now = new Date();
    await db.apiKey.updateMany({ where: { id: mine.id, revokedAt: null }, data: { revokedAt: now } });
    return { key_id: mine.id, revoked_at: now.toISOString() };
  });
}
