import { z } from "zod";
import { type ReadUnit, read, retryOnUniqueViolation, type Unit, write } from "@/lib/db";
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
  /** A built-in: shared by every owner, read-only (copy it to edit). */
  builtin: boolean;
  /** A built-in the caller has a skill of the same name of, which replaces it for the caller's agents. */
  shadowed: boolean;
  updated_at: string;
};

const ROLE = "\n\nYour role in this team: {role_description}";

/** The built-in skills, seeded idempotently at start (and on first use). Read-only: an owner copies one to edit it. */
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
  ownerId: number | null;
  updatedAt: Date;
};

function view(s: SkillRow, shadowed = false): SkillView {
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
    builtin: s.ownerId === null,
    shadowed,
    updated_at: s.updatedAt.toISOString(),
  };
}

// ── Ownership (issue 16 §2, docs/teams.md "Skills") ──────────────────────────────────────────────────
// A skill belongs to one owner (`ownerId`) or is a built-in (`ownerId` null): shared by every owner and
// read-only. A name is unique per owner and among built-ins: `scope` ("builtin" | "owner:<id>") carries the
// unique index with the name, since a unique index over a nullable column lets NULLs repeat on both
// providers. An owner's skill of a built-in's name shadows the built-in for that owner's agents. Another
// owner's skill is never visible and never resolves: it answers as a missing one does.

export const BUILTIN_SCOPE = "builtin";

/** The `scope` column of an owner's skill (or of a built-in, for null). */
export const scopeOf = (ownerId: number | null) => (ownerId === null ? BUILTIN_SCOPE : `owner:${ownerId}`);

async function insertBuiltin(u: Unit, name: string): Promise<boolean> {
  const b = BUILTIN_SKILLS.find((s) => s.name === name);
  if (!b) return false;
  const now = new Date();
  // Plain INSERT … ON CONFLICT: Prisma's upsert opens its own transaction, which a unit of work forbids.
  await u.sql.run(
    `INSERT INTO "Skill" (name, description, "systemPrompt", "toolsJson", model, builtin, scope, "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, name) DO NOTHING`,
    name,
    b.description,
    b.system_prompt,
    JSON.stringify(b.tools),
    b.model ?? null,
    true,
    BUILTIN_SCOPE,
    now,
    now,
  );
  return true;
}

/** Seed the built-in skills that are missing (never overwrites an existing row). */
export async function seedBuiltinSkills(): Promise<void> {
  await write(async (u) => {
    for (const s of BUILTIN_SKILLS) await insertBuiltin(u, s.name);
  });
}

const isWriteUnit = (u: Unit | ReadUnit): u is Unit => "afterCommit" in u;

/**
 * THE resolution rule, for every place a skill name is resolved for an agent or a goal (declare_plan's
 * existence check, create_team, spawn_agent, the runner's launch job and its limits): the goal owner's own
 * skill of that name, else the built-in of that name, else nothing. `wanted[i]` resolves to `result[i]`.
 * A built-in missing from the table is seeded on the way when `u` is a write unit.
 */
export async function resolveSkills(
  u: Unit | ReadUnit,
  wanted: readonly { ownerId: number; name: string }[],
): Promise<(SkillView | null)[]> {
  if (wanted.length === 0) return [];
  const names = [...new Set(wanted.map((w) => w.name))];
  const scopes = [BUILTIN_SCOPE, ...new Set(wanted.map((w) => scopeOf(w.ownerId)))];
  const find = async () => {
    const rows = await u.db.skill.findMany({ where: { name: { in: names }, scope: { in: scopes } } });
    return new Map(rows.map((r) => [`${r.scope}\u0000${r.name}`, r]));
  };
  let rows = await find();
  const pick = (w: { ownerId: number; name: string }) =>
    rows.get(`${scopeOf(w.ownerId)}\u0000${w.name}`) ?? rows.get(`${BUILTIN_SCOPE}\u0000${w.name}`);
  if (isWriteUnit(u)) {
    let seeded = false;
    for (const w of wanted) if (!pick(w) && (await insertBuiltin(u, w.name))) seeded = true;
    if (seeded) rows = await find();
  }
  return wanted.map((w) => {
    const r = pick(w);
    return r ? view(r) : null;
  });
}

/** One skill for one owner's agent (see `resolveSkills`); null when it does not resolve. */
export async function resolveSkill(u: Unit | ReadUnit, ownerId: number, name: string) {
  return (await resolveSkills(u, [{ ownerId, name }]))[0] ?? null;
}

/** The owner of a goal: whose skills its agents resolve. */
export async function goalOwnerId(u: Unit | ReadUnit, goalId: number): Promise<number> {
  const g = await u.db.goal.findUniqueOrThrow({ where: { id: goalId }, select: { ownerId: true } });
  return g.ownerId;
}

/** The names among `names` that do not resolve for `ownerId`'s agents (existence check of declare_plan/create_team). */
export async function missingSkills(u: Unit, ownerId: number, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  const found = await resolveSkills(
    u,
    unique.map((name) => ({ ownerId, name })),
  );
  return unique.filter((_, i) => !found[i]);
}

/** Full load of a skill at spawn time for `ownerId`'s agent; `unknown_skill` when it cannot be loaded. */
export async function loadSkill(u: Unit | ReadUnit, ownerId: number, name: string): Promise<SkillView> {
  const s = await resolveSkill(u, ownerId, name);
  if (!s?.system_prompt.trim()) throw unknownSkill([name]);
  return s;
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

// ── The owner's catalogue (REST, web UI) ─────────────────────────────────────────────────────────────

/** The owner's own skills and the built-ins (a built-in the owner has a copy of is `shadowed`), by name. */
export async function listSkills(ownerId: number): Promise<SkillView[]> {
  const rows = await read(({ db }) =>
    db.skill.findMany({
      where: { scope: { in: [BUILTIN_SCOPE, scopeOf(ownerId)] } },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
  );
  const own = new Set(rows.filter((r) => r.ownerId === ownerId).map((r) => r.name));
  return rows
    .map((r) => view(r, r.ownerId === null && own.has(r.name)))
    .sort((a, b) => a.name.localeCompare(b.name) || Number(a.builtin) - Number(b.builtin));
}

/** One skill as the owner sees it: their own of that name, else the built-in; another owner's: not found. */
export async function getSkill(ownerId: number, name: string): Promise<SkillView> {
  const s = await read((u) => resolveSkill(u, ownerId, name));
  if (!s) throw notFound(`skill ${name}`);
  return s;
}

function builtinReadOnly(name: string): DomainError {
  return new DomainError("skill_builtin_read_only", `The skill ${name} is a built-in: it is read-only.`, {
    details: { skill: name },
  });
}

/** A skill's fields as the catalogue names them: a validated input, or a skill being copied (a view). */
type SkillFields = Pick<SkillView, "description" | "system_prompt" | "tools"> &
  Partial<
    Pick<
      SkillView,
      | "model"
      | "runtime"
      | "command"
      | "env"
      | "permission_mode"
      | "allowed_tools"
      | "max_turns"
      | "max_minutes"
      | "max_cost_cents"
    >
  >;

/** The columns of a skill's fields (an absent optional field leaves its column as it is). */
function fieldsOf(data: SkillFields) {
  return {
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
}

const nameTaken = (name: string) =>
  new DomainError("name_taken", `You have a skill named ${name} already.`, { details: { skill: name } });

type OwnedFields = Pick<SkillRow, "description" | "systemPrompt" | "toolsJson"> &
  Partial<Omit<SkillRow, "name" | "builtin" | "ownerId" | "updatedAt">>;

/** Insert the owner's skill; `name_taken` when they have one of that name (a concurrent create too). */
async function insertOwned(ownerId: number, name: string, fields: OwnedFields) {
  return retryOnUniqueViolation(
    () =>
      write(async ({ db }) => {
        const scope = scopeOf(ownerId);
        if (await db.skill.findUnique({ where: { scope_name: { scope, name } } })) throw nameTaken(name);
        return view(await db.skill.create({ data: { name, ownerId, scope, builtin: false, ...fields } }));
      }),
    2,
  );
}

/**
 * Create the owner's skill (`create`), or replace the fields of their own skill of that name. A built-in
 * is refused with `skill_builtin_read_only` (copy it instead); a name the owner has no skill of and no
 * built-in has (another owner's included) is `not_found`.
 */
export async function saveSkill(
  ownerId: number,
  input: SkillInput,
  opts: { create: boolean },
): Promise<SkillView> {
  const data = skillInput.parse(input);
  if (opts.create) return insertOwned(ownerId, data.name, fieldsOf(data));
  return write(async ({ db }) => {
    const scope = scopeOf(ownerId);
    const own = await db.skill.findUnique({ where: { scope_name: { scope, name: data.name } } });
    if (own) return view(await db.skill.update({ where: { id: own.id }, data: fieldsOf(data) }));
    const builtin = await db.skill.findUnique({
      where: { scope_name: { scope: BUILTIN_SCOPE, name: data.name } },
    });
    if (builtin) throw builtinReadOnly(data.name);
    throw notFound(`skill ${data.name}`);
  });
}

/**
 * Copy-to-edit: the owner's own copy of a skill they can see (a built-in, or one of their own) under
 * `newName` (default: the same name, which then shadows the built-in for the owner's agents).
 */
export async function copySkill(ownerId: number, name: string, newName?: string | null): Promise<SkillView> {
  const target = skillName.parse(newName?.trim() || name);
  const source = await getSkill(ownerId, name);
  return insertOwned(ownerId, target, fieldsOf(source));
}

/**
 * Delete the owner's own skill (their agents then get the built-in of that name, if any; plans naming a
 * name that no longer resolves fail to spawn with `unknown_skill`). A built-in: `skill_builtin_read_only`.
 */
export async function deleteSkill(ownerId: number, name: string): Promise<void> {
  await write(async ({ db }) => {
    const n = await db.skill.deleteMany({ where: { scope: scopeOf(ownerId), name } });
    if (n.count > 0) return;
    const builtin = await db.skill.findUnique({ where: { scope_name: { scope: BUILTIN_SCOPE, name } } });
    if (builtin) throw builtinReadOnly(name);
    throw notFound(`skill ${name}`);
  });
}

// ── The operator's (no surface calls these) ──────────────────────────────────────────────────────────

/** A built-in as stored. */
export async function getBuiltinSkill(name: string): Promise<SkillView> {
  const s = await read(({ db }) =>
    db.skill.findUnique({ where: { scope_name: { scope: BUILTIN_SCOPE, name } } }),
  );
  if (!s) throw notFound(`skill ${name}`);
  return view(s);
}

/**
 * Replace a built-in's fields, for every owner. No REST route, page or action calls this: it is the
 * operator's (tests point a built-in template at a test runtime with it).
 */
export async function saveBuiltinSkill(input: SkillInput): Promise<SkillView> {
  const data = skillInput.parse(input);
  return write(async (u) => {
    await insertBuiltin(u, data.name);
    const row = await u.db.skill.findUnique({
      where: { scope_name: { scope: BUILTIN_SCOPE, name: data.name } },
    });
    if (!row) throw notFound(`built-in skill ${data.name}`);
    return view(await u.db.skill.update({ where: { id: row.id }, data: fieldsOf(data) }));
  });
}
