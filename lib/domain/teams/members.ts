import { randomBytes } from "node:crypto";
import type { Unit } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { LAUNCH_TOPIC } from "@/lib/domain/runner/launch-jobs";
import { renderPrompt, type SkillView } from "@/lib/domain/skills/skills";
import { DomainError } from "@/lib/errors";
import { AGENT_KEY_PREFIX, newId, newSecret } from "@/lib/ids";

/** Depth past which a `depth_warning` event is recorded (docs/contracts.md). */
export const DEPTH_WARNING_AFTER = 6;

/** A display name for a new member: `<role>-<4 hex>` (e.g. `frontend-engineer-a3b2`). */
export function memberName(role: string): string {
  const base =
    role
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "agent";
  return `${base}-${randomBytes(2).toString("hex")}`;
}

/** `depth_exceeded` when a member of the caller's team would be deeper than the goal allows. */
export function checkDepth(callerDepth: number, maxDepth: number): number {
  const depth = callerDepth + 1;
  if (depth > maxDepth) {
    throw new DomainError(
      "depth_exceeded",
      `Your team would be at depth ${depth}; this goal allows at most ${maxDepth}.`,
      {
        details: { depth, max_spawn_depth: maxDepth },
      },
    );
  }
  return depth;
}

/** Create a team led by `leader` (self-lead invariant: the leader is always the caller). */
export async function createTeamRow(
  u: Unit,
  leader: { id: number; goalId: number; spawnDepth: number; name: string },
  opts: { name?: string; charter?: string; rules?: string[] } = {},
) {
  const team = await u.db.team.create({
    data: {
      id: newId("team"),
      goalId: leader.goalId,
      leaderId: leader.id,
      name: opts.name ?? `${leader.name}-team`,
      charter: opts.charter ?? "",
      rulesJson: JSON.stringify(opts.rules ?? []),
      depth: leader.spawnDepth + 1,
    },
  });
  await appendEvent(u, {
    goalId: leader.goalId,
    name: "team_created",
    agentId: leader.id,
    teamId: team.id,
    data: { team_id: team.id, leader: String(leader.id), name: team.name, depth: team.depth },
  });
  return team;
}

/**
 * Add one member to a team: the agent (prompt from its skill), an API key stored only as a hash (the
 * operator or runner gets a usable one with `switchboard agent key`), its first inbox message, and the
 * `agent_spawned` event (plus `depth_warning` past depth 6).
 */
export async function addMember(
  u: Unit,
  m: {
    goalId: number;
    leaderId: number;
    teamId: string;
    depth: number;
    role: string;
    skill: SkillView;
    model: string | null;
    description: string;
    planTaskId: string | null;
    firstMessage: string;
    firstMessageKind: string;
    meta?: Record<string, unknown>;
  },
) {
  let agent: { id: number; name: string } | undefined;
  for (let i = 0; !agent; i++) {
    const name = memberName(m.role);
    if (await u.db.agent.findFirst({ where: { goalId: m.goalId, name }, select: { id: true } })) {
      if (i > 20) throw new Error("no free member name");
      continue;
    }
    agent = await u.db.agent.create({
      data: {
        goalId: m.goalId,
        name,
        role: m.role,
        skill: m.skill.name,
        model: m.model ?? m.skill.model,
        systemPrompt: renderPrompt(m.skill, m.description),
        toolScopeJson: m.skill.tools.length ? JSON.stringify(m.skill.tools) : null,
        leaderId: m.leaderId,
        teamId: m.teamId,
        spawnDepth: m.depth,
        planTaskId: m.planTaskId,
        // issue 11: spawned agents are started by a runner (docs/runner.md).
        runnerManaged: true,
        runState: "queued",
      },
      select: { id: true, name: true },
    });
    u.notify(LAUNCH_TOPIC);
  }
  const { hash, display } = newSecret(AGENT_KEY_PREFIX);
  await u.db.apiKey.create({ data: { agentId: agent.id, hash, prefix: display } });
  await insertMessage(u, {
    goalId: m.goalId,
    recipientAgentId: agent.id,
    sender: { kind: "system" },
    kind: m.firstMessageKind,
    content: m.firstMessage,
    meta: m.meta,
  });
  await appendEvent(u, {
    goalId: m.goalId,
    name: "agent_spawned",
    agentId: agent.id,
    teamId: m.teamId,
    data: {
      name: agent.name,
      role: m.role,
      skill: m.skill.name,
      leader: String(m.leaderId),
      spawn_depth: m.depth,
      plan_task_id: m.planTaskId,
    },
  });
  if (m.depth > DEPTH_WARNING_AFTER) {
    await appendEvent(u, {
      goalId: m.goalId,
      name: "depth_warning",
      agentId: agent.id,
      teamId: m.teamId,
      data: { depth: m.depth, threshold: DEPTH_WARNING_AFTER },
    });
  }
  return agent;
}
