import { z } from "zod";
import { type Db, read, write } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { reputationHistory, reputationKey, scoreOf } from "@/lib/domain/reputation/reputation";
import { DomainError, notFound } from "@/lib/errors";
import { AGENT_KEY_PREFIX, newSecret } from "@/lib/ids";
import { isTerminated } from "./terminated";

export const agentName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only");

export const registerAgentInput = z.strictObject({
  goalId: z.number().int().positive(),
  name: agentName,
  role: z.string().trim().min(1).max(64).default("agent"),
  /** Defaults to the goal's coordinator. */
  leaderId: z.number().int().positive().optional(),
});

/**
 * Status as `list_peers` reports it (`terminating`: a terminate sentinel waits unread in its inbox;
 * `quarantined`: its reputation fell below 0.3 and the owner has not lifted it — it may claim no task).
 */
export function agentStatus(a: {
  status: string;
  terminateConsumed: boolean;
  terminationRequested: boolean;
  reviewPending: boolean;
  terminatePostedAt?: Date | null;
  quarantinedAt?: Date | null;
}): string {
  if (isTerminated(a)) return "terminated";
  if (a.terminatePostedAt) return "terminating";
  if (a.quarantinedAt) return "quarantined";
  if (a.terminationRequested) return "termination_requested";
  if (a.reviewPending) return "review_pending";
  return "active";
}

/** A new API key for the agent (shown once), inside the caller's unit; `revokeOthers` revokes its earlier keys. */
export async function insertKey(db: Db, agentId: number, revokeOthers: boolean): Promise<string> {
  if (revokeOthers) {
    await db.apiKey.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: new Date() } });
  }
  const { secret, hash, display } = newSecret(AGENT_KEY_PREFIX);
  await db.apiKey.create({ data: { agentId, hash, prefix: display } });
  return secret;
}

/**
 * Register an agent that runs elsewhere (CLI `agent create`), with its first API key. Its leader is
 * the goal's coordinator unless another agent of the same goal is named.
 */
export async function registerAgent(input: z.input<typeof registerAgentInput>) {
  const data = registerAgentInput.parse(input);
  return write(async (u) => {
    const goal = await u.db.goal.findUnique({ where: { id: data.goalId } });
    if (!goal) throw notFound(`goal ${data.goalId}`);
    const leaderId = data.leaderId ?? goal.coordinatorAgentId;
    const leader = leaderId ? await u.db.agent.findUnique({ where: { id: leaderId } }) : null;
    if (!leader || leader.goalId !== goal.id) {
      throw new DomainError("invalid_input", `leader ${leaderId} is not an agent of goal ${goal.id}`);
    }
    if (await u.db.agent.findFirst({ where: { goalId: goal.id, name: data.name } })) {
      throw new DomainError("name_taken", `goal ${goal.id} already has an agent named ${data.name}`);
    }
    const agent = await u.db.agent.create({
      data: {
        goalId: goal.id,
        name: data.name,
        role: data.role,
        leaderId: leader.id,
        spawnDepth: leader.spawnDepth + 1,
      },
    });
    const apiKey = await insertKey(u.db, agent.id, false);
    await appendEvent(u, {
      goalId: goal.id,
      name: "agent_registered",
      agentId: agent.id,
      data: { name: agent.name, role: agent.role, leader: String(leader.id), spawn_depth: agent.spawnDepth },
    });
    return { agent_id: agent.id, api_key: apiKey };
  });
}

/** Issue a new API key for an agent (shown once). `revokeOthers` revokes every earlier key. */
export async function issueAgentKey(
  agentId: number,
  opts: { revokeOthers?: boolean; ownerId?: number } = {},
) {
  return write(async ({ db }) => {
    const row = await db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
    // Without an owner (the operator's CLI) any agent; with one, only theirs.
    const agent =
      opts.ownerId === undefined ? row : owned(row, (a) => a.goal.ownerId, opts.ownerId, `agent ${agentId}`);
    if (!agent) throw notFound(`agent ${agentId}`);
    return { agent_id: agent.id, api_key: await insertKey(db, agent.id, opts.revokeOthers ?? false) };
  });
}

/** Agents of a goal, for the owner's goal page. */
export async function listGoalAgents(goalId: number) {
  const agents = await read(({ db }) =>
    db.agent.findMany({
      where: { goalId },
      orderBy: { id: "asc" },
      include: { apiKeys: { where: { revokedAt: null }, select: { id: true } } },
    }),
  );
  // Issue 13: each agent's reputation (all its evidence, and per domain) for the table and its tooltip.
  const keys = agents.map((a) => reputationKey(a));
  const evidence = keys.length
    ? await read(({ db }) =>
        db.reputationEvidence.findMany({
          where: { configHash: { in: keys } },
          select: {
            id: true,
            configHash: true,
            domain: true,
            delta: true,
            weight: true,
            taskId: true,
            createdAt: true,
          },
        }),
      )
    : [];
  const reputationOf = (key: string) => {
    const rows = evidence.filter((e) => e.configHash === key);
    const domains = [...new Set(rows.map((r) => r.domain))].map((domain) => {
      const mine = rows.filter((r) => r.domain === domain);
      return { domain, score: scoreOf(mine), evidence: mine.length };
    });
    // The tooltip's history: the last 10 pieces of evidence, newest first, with the score each left.
    return {
      score: scoreOf(rows),
      evidence: rows.length,
      domains,
      history: reputationHistory(rows, undefined, 10),
    };
  };
  return agents.map((a) => ({
    agent_id: a.id,
    name: a.name,
    role: a.role,
    skill: a.skill,
    leader: a.leaderId === null ? USER_SENTINEL : String(a.leaderId),
    team_id: a.teamId,
    spawn_depth: a.spawnDepth,
    status: agentStatus(a),
    active_keys: a.apiKeys.length,
    // issue 11: queued | starting | running | backoff | exited | crashed; null: runs elsewhere (docs/runner.md).
    run_state: a.runnerManaged ? a.runState : null,
    created_at: a.createdAt.toISOString(),
    quarantined: a.quarantinedAt !== null,
    reputation: reputationOf(reputationKey(a)),
  }));
}
