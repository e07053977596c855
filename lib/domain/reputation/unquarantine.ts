import { z } from "zod";
import { read, write } from "@/lib/db";
import { agentStatus } from "@/lib/domain/agents/agents";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { DomainError } from "@/lib/errors";
import { reputationKey, scoreOf } from "./reputation";

export const unquarantineInput = z.strictObject({ agent_id: z.number().int().positive() });
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
    const now = new Date();
    const lifted = await u.db.agent.updateMany({
      where: { id: agent.id, quarantinedAt: { not: null } },
      data: { quarantinedAt: null, unquarantinedAt: now, unquarantinedBy: ownerId },
    });
    if (lifted.count !== 1) {
      throw new DomainError("not_quarantined", `Agent ${agent.name} (#${agent.id}) is not quarantined.`, {
        details: { agent_id: agent.id },
      });
    }
    await appendEvent(u, {
      goalId: agent.goalId,
      name: "agent_unquarantined",
      agentId: agent.id,
      data: { by_user_id: ownerId, quarantined_at: agent.quarantinedAt?.toISOString() ?? null },
    });
    await insertMessage(u, {
      goalId: agent.goalId,
      recipientAgentId: agent.id,
      sender: { kind: "user" },
      kind: "system",
      content: "The owner lifted your quarantine: you may claim tasks again. Your reputation is unchanged.",
    });
    await postToGoalChannel(
      u,
      agent.goalId,
      `The owner lifted the quarantine of ${agent.name} (#${agent.id}).`,
    );
    return { agent_id: agent.id, status: agentStatus(agent) };
  });
}

/**
 * `GET /api/agents/:id/reputation` (the goals contract): `{config_hash, rolling_score, evidence_count,
 * last_evidence_at}` over all of the agent's evidence, plus (ours) the same per domain, where quarantine
 * is decided, and whether it is quarantined now.
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
    return {
      config_hash: key,
      rolling_score: scoreOf(rows),
      evidence_count: rows.length,
      last_evidence_at: last?.toISOString() ?? null,
      quarantined: agent.quarantinedAt !== null,
      domains,
    };
  });
}
