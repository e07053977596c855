import { z } from "zod";
import { retryOnUniqueViolation, write } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { LAUNCH_TOPIC } from "@/lib/domain/runner/launch-jobs";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT, MAX_TOKEN_BUDGET } from "@/lib/ids";

/** Named coordinator templates for `coordinator_config`. */
export const COORDINATOR_TEMPLATES: Record<string, { role: string; skill: string; name: string }> = {
  default: { role: "coordinator", skill: "coordinator", name: "coordinator" },
};

/** `create_goal` input, exactly as the goals contract types it (plus string bounds). */
export const createGoalInput = z.strictObject({
  title: z.string().min(3).max(200),
  description: z.string().min(10).max(16000),
  budget_dollars_cents: z.number().int().min(0).max(MAX_DB_INT).optional(),
  budget_tokens: z.number().int().min(0).max(MAX_TOKEN_BUDGET).optional(),
  max_spawn_depth: z.number().int().min(1).max(10).default(3),
  coordinator_config: z
    .string()
    .max(64)
    .default("default")
    .describe("Named coordinator template; defaults to 'default'"),
});

export const createGoalOutput = z.object({
  goal_id: z.number().int(),
  slug: z.string(),
  channel_id: z.number().int(),
  coordinator_agent_id: z.number().int(),
});

export function slugify(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return base || "goal";
}

/** The first free slug of `base`, `base-2`, `base-3`, … */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const set = new Set(taken);
  if (!set.has(base)) return base;
  for (let n = 2; ; n++) if (!set.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Create a goal in `draft` with its channel `#goal-<slug>` and its coordinator agent, whose leader is
 * the owner (the `__user__` sentinel, stored as leaderId null).
 */
export async function createGoal(ownerId: number, input: z.input<typeof createGoalInput>) {
  const data = createGoalInput.parse(input);
  // Own keys only: "__proto__" or "constructor" would find Object's (found by the fuzz test).
  const template = Object.hasOwn(COORDINATOR_TEMPLATES, data.coordinator_config)
    ? COORDINATOR_TEMPLATES[data.coordinator_config]
    : undefined;
  if (!template) {
    throw new DomainError(
      "invalid_input",
      `coordinator_config: unknown template "${data.coordinator_config}"`,
      {
        details: { field: "coordinator_config", known: Object.keys(COORDINATOR_TEMPLATES) },
        hint: `Use one of: ${Object.keys(COORDINATOR_TEMPLATES).join(", ")}.`,
      },
    );
  }
  const base = slugify(data.title);
  // On PostgreSQL two goals of the same title can race for one slug; the unique index decides and the
  // loser picks the next free slug. (SQLite serializes writers, so it never retries.)
  return retryOnUniqueViolation(() => insertGoal(ownerId, data, template, base));
}

async function insertGoal(
  ownerId: number,
  data: z.output<typeof createGoalInput>,
  template: { role: string; skill: string; name: string },
  base: string,
) {
  return write(async (u) => {
    const { db } = u;
    const taken = await db.goal.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
    const slug = nextFreeSlug(
      base,
      taken.map((g) => g.slug),
    );
    const goal = await db.goal.create({
      data: {
        slug,
        title: data.title,
        description: data.description,
        ownerId,
        budgetCents: data.budget_dollars_cents ?? null,
        budgetTokens: data.budget_tokens ?? null,
        maxSpawnDepth: data.max_spawn_depth,
        coordinatorConfig: data.coordinator_config,
      },
    });
    const channel = await db.channel.create({
      data: { name: `goal-${slug}`, kind: "goal", goalId: goal.id },
    });
    const coordinator = await db.agent.create({
      data: {
        goalId: goal.id,
        name: template.name,
        role: template.role,
        skill: template.skill,
        spawnDepth: 0,
        // issue 11: the coordinator is started by a runner (docs/runner.md).
        runnerManaged: true,
        runState: "queued",
      },
    });
    await db.goal.update({
      where: { id: goal.id },
      data: { channelId: channel.id, coordinatorAgentId: coordinator.id },
    });
    await appendEvent(u, {
      goalId: goal.id,
      name: "goal_created",
      data: { slug, title: data.title, owner_user_id: ownerId },
    });
    await appendEvent(u, {
      goalId: goal.id,
      name: "agent_registered",
      agentId: coordinator.id,
      data: { name: coordinator.name, role: coordinator.role, leader: USER_SENTINEL, spawn_depth: 0 },
    });
    await insertMessage(u, {
      goalId: goal.id,
      channelId: channel.id,
      sender: { kind: "system" },
      kind: "system",
      content: `Goal "${data.title}" created (draft). Coordinator: ${coordinator.name} (#${coordinator.id}).`,
    });
    // The coordinator's first message is the goal itself (what a runner-fed coordinator starts on).
    await insertMessage(u, {
      goalId: goal.id,
      recipientAgentId: coordinator.id,
      sender: { kind: "system" },
      kind: "task_assignment",
      content: `[GOAL #${goal.id}] ${data.title}\n\n${data.description}\n\nYou coordinate this goal: propose a task tree (propose_task_tree) for the owner to approve, or plan and spawn a team (declare_plan, spawn_agent). Ask the owner with ask_user when something only they can decide.`,
      meta: { goal_id: goal.id },
    });
    u.notify(LAUNCH_TOPIC);
    return { goal_id: goal.id, slug, channel_id: channel.id, coordinator_agent_id: coordinator.id };
  });
}
