import { z } from "zod";
import { type ReadUnit, read, type Unit, write } from "@/lib/db";
import { DomainError, notFound } from "@/lib/errors";

/** Claude Code permission modes a template may name (docs/runtimes.md). */
export const PERMISSION_MODES = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk"] as const;

/** A skill name: how plans and teams refer to a template (`engineer`, `junior_engineer`). */
export const skillName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "lowercase letters, digits, '_' and '-' only");

/** A template limit: a positive whole number. */
const limit = z.number().int().positive().max(1_000_000_000);

export const skillInput = z.strictObject({
  name: skillName,
  description: z.string().trim().min(1).max(500),
  system_prompt: z.string().trim().min(1).max(20_000),
  tools: z.array(z.string().min(1).max(64)).max(100).default([]),
  model: z.string().trim().max(100).nullish(),
  // issue 11: how a runner starts agents of this template (docs/runner.md). Omitted on an edit: unchanged.
  runtime: z.enum(["claude-code", "command"]).optional(),
  command: z
    .strictObject({
      cmd: z.string().min(1).max(1000),
      args: z.array(z.string().max(4000)).max(100).optional(),
    })
    .nullish(),
  env: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(100),
      z.string().max(10_000),
    )
    .nullish(),
  // issue 11: the claude-code runtime's permission mode and its own tools allowed without asking
  // (docs/runtimes.md). Nothing is ever prompted: a tool the mode would ask about is denied (an event).
  permission_mode: z.enum(PERMISSION_MODES).nullish(),
  allowed_tools: z.array(z.string().trim().min(1).max(200)).max(100).nullish(),
  // issue 11: limits (docs/runner.md, "Limits"). Per launch: completed turns (claude-code) and wall-clock
  // minutes, enforced by the runner; per agent over all its launches: recorded spend in cents, enforced by
  // the hub. null: no limit; omitted on an edit: unchanged.
  max_turns: limit.nullish(),
  max_minutes: limit.nullish(),
  max_cost_cents: limit.nullish(),
});
export type SkillInput = z.input<typeof skillInput>;

export type SkillView = {
  name: string;
  description: string;
  system_prompt: string;
  tools: string[];
  model: string | null;
  runtime: string;
  command: { cmd: string; args?: string[] } | null;
  env: Record<string, string> | null;
  permission_mode: string | null;
  allowed_tools: string[] | null;
  max_turns: number | null;
  max_minutes: number | null;
  max_cost_cents: number | null;
  builtin: boolean;
  updated_at: string;
};

const ROLE = "\n\nYour role in this team: {role_description}";

/** The built-in skills, seeded idempotently at start (and on first use). The owner can edit them. */
export const BUILTIN_SKILLS: z.output<typeof skillInput>[] = [
  {
    name: "coordinator",
    description: "Leads a goal: declares a plan, spawns agents for ready tasks, reviews their work.",
    system_prompt:
      "You coordinate a team of agents on one goal. Break the work into a plan with declare_plan, spawn an agent for each ready task with spawn_agent, and review what they deliver: terminate_child approves, send_message asks for rework. Call list_ready after approvals to spawn what became ready. When everything is done, signal_review to your own leader." +
      ROLE,
    tools: [],
    model: null,
  },
  {
    name: "engineer",
    description: "Implements a well-scoped change and reports it for review.",
    system_prompt:
      "You are a software engineer. Do exactly the task you were assigned, write your deliverables under the artifacts_path of your [TASK ASSIGNMENT], then call signal_review with a detail that starts with [REVIEW REQUIRED] and lists what you produced. Wait for your leader's verdict in your inbox." +
      ROLE,
    tools: [],
    model: null,
  },
  {
    name: "reviewer",
    description: "Reviews a deliverable against its task and reports findings.",
    system_prompt:
      "You review work. Check the deliverable named in your task against its requirements, write your findings under your artifacts_path, and signal_review with [REVIEW REQUIRED] and a verdict with reasons." +
      ROLE,
    tools: [],
    model: null,
  },
  {
    name: "researcher",
    description: "Finds and summarizes information needed by the team.",
    system_prompt:
      "You research a question. Collect what is needed, cite your sources, write a summary under your artifacts_path and signal_review with [REVIEW REQUIRED] and the key findings." +
      ROLE,
    tools: [],
    model: null,
  },
];

type SkillRow = {
  name: string;
  description: string;
  systemPrompt: string;
  toolsJson: string;
  model: string | null;
  runtime: string;
  commandJson: string | null;
  envJson: string | null;
  permissionMode: string | null;
  allowedToolsJson: string | null;
  maxTurns: number | null;
  maxMinutes: number | null;
  maxCostCents: number | null;
  builtin: boolean;
  updatedAt: Date;
};

function view(s: SkillRow): SkillView {
  return {
    name: s.name,
    description: s.description,
    system_prompt: s.systemPrompt,
    tools: JSON.parse(s.toolsJson) as string[],
    model: s.model,
    runtime: s.runtime,
    command: s.commandJson ? (JSON.parse(s.commandJson) as SkillView["command"]) : null,
    env: s.envJson ? (JSON.parse(s.envJson) as Record<string, string>) : null,
    permission_mode: s.permissionMode,
    allowed_tools: s.allowedToolsJson ? (JSON.parse(s.allowedToolsJson) as string[]) : null,
    max_turns: s.maxTurns,
    max_minutes: s.maxMinutes,
    max_cost_cents: s.maxCostCents,
    builtin: s.builtin,
    updated_at: s.updatedAt.toISOString(),
  };
}

async function insertBuiltin(u: Unit, name: string): Promise<boolean> {
  const b = BUILTIN_SKILLS.find((s) => s.name === name);
  if (!b) return false;
  const now = new Date();
  // Plain INSERT … ON CONFLICT: Prisma's upsert opens its own transaction, which a unit of work forbids.
  await u.sql.run(
    `INSERT INTO "Skill" (name, description, "systemPrompt", "toolsJson", model, builtin, "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
    name,
    b.description,
    b.system_prompt,
    JSON.stringify(b.tools),
    b.model ?? null,
    true,
    now,
    now,
  );
  return true;
}

/** Seed the built-in skills that are missing (never overwrites an owner's edits). */
export async function seedBuiltinSkills(): Promise<void> {
  await write(async (u) => {
    for (const s of BUILTIN_SKILLS) await insertBuiltin(u, s.name);
  });
}

/** The names among `names` that do not resolve to a skill (existence check of declare_plan/create_team). */
export async function missingSkills(u: Unit, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  const found = await u.db.skill.findMany({ where: { name: { in: unique } }, select: { name: true } });
  const have = new Set(found.map((s) => s.name));
  const missing: string[] = [];
  for (const n of unique) if (!have.has(n) && !(await insertBuiltin(u, n))) missing.push(n);
  return missing;
}

/** Full load of a skill at spawn time; `unknown_skill` when it cannot be loaded. */
export async function loadSkill(u: Unit | ReadUnit, name: string): Promise<SkillView> {
  const s = await u.db.skill.findUnique({ where: { name } });
  if (!s?.systemPrompt.trim()) throw unknownSkill([name]);
  return view(s);
}

export function unknownSkill(names: string[]): DomainError {
  return new DomainError("unknown_skill", `No loadable skill named ${names.join(", ")}.`, {
    details: { skills: names },
  });
}

/** The skill's system prompt with the member's scope substituted for {role_description}. */
export function renderPrompt(skill: SkillView, roleDescription: string): string {
  return skill.system_prompt.replaceAll("{role_description}", roleDescription || "(none given)");
}

export async function listSkills(): Promise<SkillView[]> {
  const rows = await read(({ db }) => db.skill.findMany({ orderBy: { name: "asc" } }));
  return rows.map(view);
}

export async function getSkill(name: string): Promise<SkillView> {
  const s = await read(({ db }) => db.skill.findUnique({ where: { name } }));
  if (!s) throw notFound(`skill ${name}`);
  return view(s);
}

/** Create a skill, or replace an existing one's fields (owner action). */
export async function saveSkill(input: SkillInput, opts: { create: boolean }): Promise<SkillView> {
  const data = skillInput.parse(input);
  return write(async ({ db }) => {
    const existing = await db.skill.findUnique({ where: { name: data.name } });
    if (opts.create && existing) {
      throw new DomainError("name_taken", `A skill named ${data.name} exists already.`);
    }
    if (!opts.create && !existing) throw notFound(`skill ${data.name}`);
    const fields = {
      description: data.description,
      systemPrompt: data.system_prompt,
      toolsJson: JSON.stringify(data.tools),
      model: data.model || null,
      ...(data.runtime !== undefined && { runtime: data.runtime }),
      ...(data.command !== undefined && { commandJson: data.command ? JSON.stringify(data.command) : null }),
      ...(data.env !== undefined && { envJson: data.env ? JSON.stringify(data.env) : null }),
      ...(data.permission_mode !== undefined && { permissionMode: data.permission_mode ?? null }),
      ...(data.allowed_tools !== undefined && {
        allowedToolsJson: data.allowed_tools ? JSON.stringify(data.allowed_tools) : null,
      }),
      ...(data.max_turns !== undefined && { maxTurns: data.max_turns ?? null }),
      ...(data.max_minutes !== undefined && { maxMinutes: data.max_minutes ?? null }),
      ...(data.max_cost_cents !== undefined && { maxCostCents: data.max_cost_cents ?? null }),
    };
    const row = existing
      ? await db.skill.update({ where: { name: data.name }, data: fields })
      : await db.skill.create({ data: { name: data.name, ...fields } });
    return view(row);
  });
}

/** Delete a skill (plans that name it then fail to spawn with `unknown_skill`). */
export async function deleteSkill(name: string): Promise<void> {
  await write(async ({ db }) => {
    const n = await db.skill.deleteMany({ where: { name } });
    if (n.count === 0) throw notFound(`skill ${name}`);
  });
}
