import { z } from "zod";
import { read, write } from "@/lib/db";
import { agentStatus } from "@/lib/domain/agents/agents";
import { owned } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { liftQuarantine } from "./lift-quarantine";
import { reputationHistory, reputationKey, scoreOf } from "./reputation";

export const unquarantineInput = z.strictObject({ agent_id: z.number().int().positive().max(MAX_DB_INT) });
export const unquarantineOutput = z.object({ agent_id: z.number().int(), status: z.string() });

/**
 * `unquarantine_agent`: the owner lifts an agent's quarantine. Reputation is unchanged (the evidence
 * stays; a later verdict that leaves the score below 0.3 quarantines it again). Another owner's agent is
 * `not_found`; an agent that is not quarantined is `not_quarantined`. The conditional update makes it
 * single-use under concurrency; an `agent_unquarantined` event records who lifted it.
 */
export async function unquarantineAgent(ownerId: number, agentId: number) {
  return write(async (u) => {
    const row = await u.db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
    const agent = owned(row, (a) => a.goal.ownerId, ownerId, `agent ${agentId}`);
    if (!(await liftQuarantine(u, agent, ownerId, "unquarantine_agent"))) {
      throw new DomainError("not_quarantined", `Agent ${agent.name} (#${agent.id}) is not quarantined.`, {
        details: { agent_id: agent.id },
      });
    }
    return { agent_id: agent.id, status: agentStatus({ ...agent, quarantinedAt: null }) };
  });
}

/**
 * `GET /api/agents/:id/reputation` (the goals contract): `{config_hash, rolling_score, evidence_count,
 * last_evidence_at}` over all of the agent's evidence, plus (ours) the same per domain, where quarantine
 * is decided, whether it is quarantined now, and `history`: the evidence newest first (at most 50), each
 * with the domain score just after it.
 */
export async function agentReputation(ownerId: number, agentId: number) {
  return read(async (u) => {
    const row = await u.db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
    const agent = owned(row, (a) => a.goal.ownerId, ownerId, `agent ${agentId}`);
    const key = reputationKey(agent);
    const rows = await u.db.reputationEvidence.findMany({
      where: { configHash: key },
      orderBy: { id: "asc" },
    });
    const domains = [...new Set(rows.map((r) => r.domain))].map((domain) => {
      const mine = rows.filter((r) => r.domain === domain);
      return { domain, rolling_score: scoreOf(mine), evidence_count: mine.length };
    });
    const last = rows.reduce<Date | null>((m, r) => (m === null || r.createdAt > m ? r.createdAt : m), null);
    const taskIds = [...new Set(rows.map((r) => r.taskId).filter((t): t is number => t !== null))];
    const tasks = taskIds.length
      ? await u.db.goalTask.findMany({ where: { id: { in: taskIds } }, select: { id: true, title: true } })
      : [];
    return {
      config_hash: key,
      rolling_score: scoreOf(rows),
      evidence_count: rows.length,
      last_evidence_at: last?.toISOString() ?? null,
      quarantined: agent.quarantinedAt !== null,
      domains,
      history: reputationHistory(rows, new Map(tasks.map((t) => [t.id, t.title]))),
    };
  });
}
