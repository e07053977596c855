import { z } from "zod";
import { write } from "@/lib/db";
import { loadSkill, missingSkills, skillName, unknownSkill } from "@/lib/domain/skills/skills";
import { holdGoalUnpaused } from "@/lib/domain/usage/budget-gate";
import { DomainError } from "@/lib/errors";
import { uuid } from "@/lib/ids";
import { acquireLease, holdLock, releaseLease } from "./lease";
import { addMember, checkDepth, createTeamRow } from "./members";
import { concurrentError } from "./spawn-agent";

export const createTeamInput = z.strictObject({
  name: z.string().trim().min(1).max(100).describe("Human-readable team name."),
  task: z.string().trim().min(1).max(20_000).describe("Team charter, recorded on the team."),
  roles: z
    .array(
      z.strictObject({
        role: z.string().trim().min(1).max(64),
        skill: skillName,
        model: z.string().trim().min(1).max(100).optional(),
        description: z.string().max(4000).describe("What THIS member must produce ({role_description})."),
      }),
    )
    .min(1)
    .max(20),
  rules: z.array(z.string().max(1000)).max(50).default([]),
  consensus: z.boolean().default(false).describe("true: allow members with identical skill+description."),
  leader_id: z
    .unknown()
    .optional()
    .describe("Never set: you are always the leader of the teams you create (leader_override_attempted)."),
});

export const createTeamOutput = z.object({
  team_id: z.string(),
  members: z.array(z.object({ agent_id: z.string(), role: z.string() })),
});

/**
 * `create_team` (deprecated; declare_plan + spawn_agent replace it): a new team led by the caller with
 * one agent per role. Each member's first message is the goal's task (the originating user task) with
 * its role scope.
 */
export async function createTeam(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof createTeamInput>,
) {
  if (input.leader_id !== undefined) {
    throw new DomainError(
      "leader_override_attempted",
      "leader_id cannot be set: you lead the teams you create.",
    );
  }
  const pairs = new Set(input.roles.map((r) => JSON.stringify([r.skill, r.description.trim()])));
  if (input.roles.length > 1 && pairs.size === 1 && !input.consensus) {
    throw new DomainError(
      "duplicate_member_descriptions",
      "Every member has the same skill and description: they would all do the whole task in parallel.",
    );
  }
  const lock = `create_team:${caller.agentId}`;
  const holder = uuid();
  if (!(await acquireLease(lock, holder, 30_000)))
    throw concurrentError("concurrent_create_team", "create_team");
  try {
    await holdLock();
    return await write(async (u) => {
      await holdGoalUnpaused(u, caller.goalId, "create_team");
      const me = await u.db.agent.findUniqueOrThrow({
        where: { id: caller.agentId },
        include: { goal: true },
      });
      const depth = checkDepth(me.spawnDepth, me.goal.maxSpawnDepth);
      // The goal owner's own skills, else the built-ins (issue 16 §2).
      const missing = await missingSkills(
        u,
        me.goal.ownerId,
        input.roles.map((r) => r.skill),
      );
      if (missing.length) throw unknownSkill(missing);
      const team = await createTeamRow(u, me, { name: input.name, charter: input.task, rules: input.rules });
      const members: { agent_id: string; role: string }[] = [];
      for (const r of input.roles) {
        const skill = await loadSkill(u, me.goal.ownerId, r.skill);
        const rules = input.rules.length
          ? `\n\nTeam rules:\n${input.rules.map((x) => `- ${x}`).join("\n")}`
          : "";
        const agent = await addMember(u, {
          goalId: me.goalId,
          leaderId: me.id,
          teamId: team.id,
          depth,
          role: r.role,
          skill,
          model: r.model ?? null,
          description: r.description,
          planTaskId: null,
          firstMessage: `${me.goal.description}\n\nYour role (${r.role}): ${r.description}${rules}`,
          firstMessageKind: "task_assignment",
          meta: { team_id: team.id },
        });
        members.push({ agent_id: String(agent.id), role: r.role });
      }
      return { team_id: team.id, members };
    });
  } finally {
    await releaseLease(lock, holder);
  }
}
