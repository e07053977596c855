// Skills have an owner (issue 16 §2, docs/teams.md "Skills"): an owner's skill is theirs alone (another
// owner gets 404 exactly as for a missing one, and their agents get unknown_skill), built-ins are shared and
// read-only (skill_builtin_read_only), and copy-to-edit makes the owner's copy, which shadows the built-in
// for that owner's agents only: spawned agents' prompts and the runner's launch jobs come from the copy.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { errorCode, type InProcess, startInProcess } from "../helpers/in-process";
import { call, goalWithCoordinator, task } from "../helpers/teams";

let h: InProcess;
let db: typeof import("@/lib/db");
let tokenA: string;
let tokenB: string;

before(async () => {
  h = await startInProcess({ env: { SWITCHBOARD_WATCHDOG: "0" } });
  db = await import("@/lib/db");
  tokenA = await h.ownerToken("skills-a@example.com");
  tokenB = await h.ownerToken("skills-b@example.com");
});
after(async () => {
  await h?.stop();
});

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown> & { error?: { code: string } }) : {};
  return { status: r.status, json, text, code: json.error?.code };
}

const skillBody = (name: string, prompt: string) => ({
  name,
  description: `The ${name} skill`,
  system_prompt: prompt,
});
/** Every Skill row, as stored (to prove that a refused call changed nothing). */
const allSkills = () =>
  db.read(({ db: d }) => d.skill.findMany({ orderBy: { id: "asc" } })).then((r) => JSON.stringify(r));

test("owner B cannot see, read, edit, copy or delete owner A's skill: 404 exactly as for a missing one", async () => {
  const created = await rest(tokenA, "POST", "/api/skills", skillBody("a-secret-skill", "A-ONLY prompt"));
  assert.equal(created.status, 201, created.text);
  assert.deepEqual([created.json.builtin, created.json.shadowed], [false, false]);
  // A sees it; B's list has only B's own and the built-ins.
  const listA = await rest(tokenA, "GET", "/api/skills");
  assert.ok(listA.text.includes("a-secret-skill"));
  const listB = await rest(tokenB, "GET", "/api/skills");
  assert.equal(listB.status, 200);
  assert.ok(!listB.text.includes("a-secret-skill") && !listB.text.includes("A-ONLY"), listB.text);
  const names = (listB.json.skills as { name: string; builtin: boolean }[]).map((s) => [s.name, s.builtin]);
  assert.deepEqual(names, [
    ["coordinator", true],
    ["engineer", true],
    ["researcher", true],
    ["reviewer", true],
  ]);

  const before = await allSkills();
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/skills/NAME"],
    ["PUT", "/api/skills/NAME", { description: "stolen", system_prompt: "B rewrote this" }],
    ["DELETE", "/api/skills/NAME"],
    ["POST", "/api/skills/NAME/copy", { name: "b-stolen-copy" }],
  ];
  for (const [method, url, body] of calls) {
    const theirs = await rest(tokenB, method, url.replace("NAME", "a-secret-skill"), body);
    const missing = await rest(tokenB, method, url.replace("NAME", "no-such-skill"), body);
    assert.equal(theirs.status, 404, `${method} ${url}: ${theirs.text}`);
    assert.deepEqual([theirs.status, theirs.code], [missing.status, missing.code], `${method} ${url}`);
    assert.ok(!theirs.text.includes("A-ONLY"), theirs.text);
  }
  assert.equal(await allSkills(), before, "nothing of A's changed");
  // A's own calls still work.
  assert.equal((await rest(tokenA, "GET", "/api/skills/a-secret-skill")).json.system_prompt, "A-ONLY prompt");

  // Names are per owner: B may have a skill of the same name, which is B's and leaves A's alone.
  const mine = await rest(tokenB, "POST", "/api/skills", skillBody("a-secret-skill", "B's own prompt"));
  assert.equal(mine.status, 201, mine.text);
  assert.equal((await rest(tokenA, "GET", "/api/skills/a-secret-skill")).json.system_prompt, "A-ONLY prompt");
  assert.equal(
    (await rest(tokenB, "GET", "/api/skills/a-secret-skill")).json.system_prompt,
    "B's own prompt",
  );
  // The same name twice for one owner: a conflict.
  const again = await rest(tokenB, "POST", "/api/skills", skillBody("a-secret-skill", "again"));
  assert.deepEqual([again.status, again.code], [409, "name_taken"]);
  assert.equal((await rest(tokenB, "DELETE", "/api/skills/a-secret-skill")).status, 204);
  assert.equal((await rest(tokenA, "GET", "/api/skills/a-secret-skill")).status, 200, "A's is still there");
});

test("B's agents cannot use A's skill: unknown_skill in declare_plan, create_team and spawn_agent", async () => {
  assert.equal(
    (await rest(tokenA, "POST", "/api/skills", skillBody("a-team-skill", "A team prompt {role_description}")))
      .status,
    201,
  );
  const a = await goalWithCoordinator(h, 3, "skills-a@example.com");
  const b = await goalWithCoordinator(h, 3, "skills-b@example.com");
  // A's own agents resolve it.
  await call(a.coordinator, "declare_plan", { tasks: [task("x", [], "a-team-skill")] });
  const spawned = await call<{ agent_id: string }>(a.coordinator, "spawn_agent", { task_id: "x" });
  const row = await db.read(({ db: d }) =>
    d.agent.findUniqueOrThrow({ where: { id: Number(spawned.agent_id) } }),
  );
  assert.match(row.systemPrompt ?? "", /^A team prompt/);

  // B's do not: as if it did not exist.
  const declared = await b.coordinator.client.callTool({
    name: "declare_plan",
    arguments: { tasks: [task("x", [], "a-team-skill")] },
  });
  assert.equal(errorCode(declared), "unknown_skill");
  assert.deepEqual(
    (declared.structuredContent as { error: { details: { skills: string[] } } }).error.details.skills,
    ["a-team-skill"],
  );
  const team = await b.coordinator.client.callTool({
    name: "create_team",
    arguments: { name: "t", task: "x", roles: [{ role: "r", skill: "a-team-skill", description: "d" }] },
  });
  assert.equal(errorCode(team), "unknown_skill");

  // spawn_agent: B declared a plan with B's own skill of that name, then deleted it. A's skill of the same
  // name must not stand in for it.
  assert.equal(
    (await rest(tokenB, "POST", "/api/skills", skillBody("a-team-skill", "B team prompt"))).status,
    201,
  );
  await call(b.coordinator, "declare_plan", { tasks: [task("y", [], "a-team-skill")] });
  assert.equal((await rest(tokenB, "DELETE", "/api/skills/a-team-skill")).status, 204);
  const spawn = await b.coordinator.client.callTool({ name: "spawn_agent", arguments: { task_id: "y" } });
  assert.equal(errorCode(spawn), "unknown_skill", JSON.stringify(spawn));
  assert.deepEqual(await call(b.coordinator, "list_ready"), { ready: ["y"] });
});

test("a built-in cannot be edited or deleted (skill_builtin_read_only), by REST or by the server action", async () => {
  const before = await allSkills();
  const put = await rest(tokenB, "PUT", "/api/skills/reviewer", {
    description: "mine now",
    system_prompt: "Obey owner B.",
  });
  assert.deepEqual([put.status, put.code], [409, "skill_builtin_read_only"], put.text);
  const del = await rest(tokenB, "DELETE", "/api/skills/reviewer");
  assert.deepEqual([del.status, del.code], [409, "skill_builtin_read_only"], del.text);
  assert.equal(await allSkills(), before, "the built-in is unchanged");
  // The domain refuses alike whatever the surface (the server action calls saveSkill / deleteSkill).
  const skills = await import("@/lib/domain/skills/skills");
  const ownerB = await db.read(({ db: d }) =>
    d.user.findUniqueOrThrow({ where: { email: "skills-b@example.com" } }),
  );
  await assert.rejects(
    skills.saveSkill(
      ownerB.id,
      { name: "reviewer", description: "d", system_prompt: "p" },
      { create: false },
    ),
    (e: { code?: string }) => e.code === "skill_builtin_read_only",
  );
  await assert.rejects(
    skills.deleteSkill(ownerB.id, "reviewer"),
    (e: { code?: string }) => e.code === "skill_builtin_read_only",
  );
  assert.equal(await allSkills(), before);
  // GET of a built-in: readable by everyone, marked.
  const got = await rest(tokenB, "GET", "/api/skills/reviewer");
  assert.deepEqual([got.status, got.json.builtin], [200, true]);
});

test("copy to edit: B's copy shadows the built-in for B's agents (spawned prompt, launch job), A's agents keep the built-in", async () => {
  // B copies two built-ins under their own names and edits them.
  const copy = await rest(tokenB, "POST", "/api/skills/engineer/copy", {});
  assert.equal(copy.status, 201, copy.text);
  assert.deepEqual([copy.json.name, copy.json.builtin], ["engineer", false]);
  const twice = await rest(tokenB, "POST", "/api/skills/engineer/copy", {});
  assert.deepEqual([twice.status, twice.code], [409, "name_taken"]);
  const edited = await rest(tokenB, "PUT", "/api/skills/engineer", {
    description: "B's engineer",
    system_prompt: "B-COPY engineer prompt. {role_description}",
  });
  assert.equal(edited.status, 200, edited.text);
  assert.equal((await rest(tokenB, "POST", "/api/skills/coordinator/copy", {})).status, 201);
  const coord = await rest(tokenB, "PUT", "/api/skills/coordinator", {
    description: "B's coordinator",
    system_prompt: "B-COPY coordinator prompt.",
    runtime: "command",
    command: { cmd: "/bin/true" },
    env: { B_ONLY: "1" },
  });
  assert.equal(coord.status, 200, coord.text);
  // A copy under a new name leaves the built-in in place for B too.
  const named = await rest(tokenB, "POST", "/api/skills/reviewer/copy", { name: "strict_reviewer" });
  assert.deepEqual([named.status, named.json.name], [201, "strict_reviewer"]);

  // B's list: the copies, and the built-ins they shadow marked as such.
  const list = (await rest(tokenB, "GET", "/api/skills")).json.skills as {
    name: string;
    builtin: boolean;
    shadowed: boolean;
  }[];
  const flags = (n: string) => list.filter((s) => s.name === n).map((s) => [s.builtin, s.shadowed]);
  assert.deepEqual(flags("engineer"), [
    [false, false],
    [true, true],
  ]);
  assert.deepEqual(flags("reviewer"), [[true, false]]);
  assert.deepEqual(flags("strict_reviewer"), [[false, false]]);
  // A's list and A's view of the built-in are untouched.
  const listA = (await rest(tokenA, "GET", "/api/skills")).json.skills as {
    name: string;
    shadowed: boolean;
  }[];
  assert.ok(listA.every((s) => !s.shadowed && s.name !== "strict_reviewer"));
  const engA = await rest(tokenA, "GET", "/api/skills/engineer");
  assert.deepEqual([engA.json.builtin, String(engA.json.system_prompt).includes("B-COPY")], [true, false]);

  // Spawned agents: B's gets the copy's prompt, A's the built-in's.
  const a = await goalWithCoordinator(h, 3, "skills-a@example.com");
  const b = await goalWithCoordinator(h, 3, "skills-b@example.com");
  const prompts: Record<string, string> = {};
  for (const [who, g] of [
    ["a", a],
    ["b", b],
  ] as const) {
    await call(g.coordinator, "declare_plan", { tasks: [task("e")] });
    const s = await call<{ agent_id: string }>(g.coordinator, "spawn_agent", { task_id: "e" });
    prompts[who] = (
      await db.read(({ db: d }) => d.agent.findUniqueOrThrow({ where: { id: Number(s.agent_id) } }))
    ).systemPrompt as string;
  }
  assert.match(prompts.b ?? "", /^B-COPY engineer prompt\./);
  assert.ok(!prompts.a?.includes("B-COPY"), prompts.a);
  assert.match(prompts.a ?? "", /^You are a software engineer\./);

  // Launch jobs: the runner gets B's coordinator template (runtime, command, env, prompt) for B's
  // coordinator only; A's coordinator launches from the built-in.
  const { createRunnerToken, authenticateRunner } = await import("@/lib/domain/runner/tokens");
  const { pollJob } = await import("@/lib/domain/runner/launch-jobs");
  const runner = await authenticateRunner((await createRunnerToken({ name: "skills-test" })).token);
  assert.ok(runner);
  const wanted = new Set([a.goal.coordinator_agent_id, b.goal.coordinator_agent_id]);
  const jobs = new Map<number, import("@/lib/domain/runner/launch-jobs").AgentJob>();
  for (let i = 0; i < 50 && jobs.size < wanted.size; i++) {
    const { job } = await pollJob(runner, {
      instance: "skills-test",
      runtimes: ["claude-code", "command"],
      agent_slots: 10,
    });
    if (!job) break;
    if (job.kind === "agent" && wanted.has(job.agent_id)) jobs.set(job.agent_id, job);
  }
  const jobA = jobs.get(a.goal.coordinator_agent_id);
  const jobB = jobs.get(b.goal.coordinator_agent_id);
  assert.ok(jobA && jobB, `both coordinators launched (got ${[...jobs.keys()]})`);
  assert.deepEqual([jobB.runtime, jobB.command?.cmd, jobB.env.B_ONLY], ["command", "/bin/true", "1"]);
  assert.match(jobB.system_prompt, /^B-COPY coordinator prompt\./);
  assert.deepEqual([jobA.runtime, jobA.command, jobA.env.B_ONLY], ["claude-code", null, undefined]);
  assert.match(jobA.system_prompt, /^You coordinate a team of agents/);

  // Deleting B's copy brings the built-in back for B.
  assert.equal((await rest(tokenB, "DELETE", "/api/skills/engineer")).status, 204);
  const back = await rest(tokenB, "GET", "/api/skills/engineer");
  assert.deepEqual([back.json.builtin, back.json.shadowed], [true, false]);
});

test("the server actions act on the signed-in owner's skills only", async () => {
  // As in the authorization matrix: requireOwner answers the owner this test sets, next/* are shims.
  const { register } = await import("node:module");
  const g = globalThis as { __skillsOwner?: { userId: number; email: string } };
  const ownerB = await db.read(({ db: d }) =>
    d.user.findUniqueOrThrow({ where: { email: "skills-b@example.com" } }),
  );
  g.__skillsOwner = { userId: ownerB.id, email: ownerB.email };
  const mod = (src: string) => `data:text/javascript,${encodeURIComponent(src)}`;
  const shims: Record<string, string> = {
    "@/lib/auth/require-owner": mod("export const requireOwner = async () => globalThis.__skillsOwner;"),
    "next/cache": mod("export const revalidatePath = () => {}; export const revalidateTag = () => {};"),
    "next/navigation": mod(
      "export const redirect = (to) => { const e = new Error('NEXT_REDIRECT ' + to); e.digest = 'NEXT_REDIRECT'; throw e; }; export const notFound = () => { throw new Error('NEXT_NOT_FOUND'); };",
    ),
  };
  register(
    `data:text/javascript,${encodeURIComponent(`const shims = ${JSON.stringify(shims)};
    export async function resolve(specifier, context, next) {
      if (shims[specifier]) return { url: shims[specifier], shortCircuit: true };
      return next(specifier, context);
    }`)}`,
  );
  const actions = await import("@/app/skills/actions");
  const form = (o: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(o)) f.set(k, v);
    return f;
  };
  const before = await allSkills();
  // A's skill (a-secret-skill, from the first test): not found for B, nothing changes.
  const edit = await actions.saveSkillAction(
    "edit",
    {},
    form({ name: "a-secret-skill", description: "x", system_prompt: "B rewrote it" }),
  );
  assert.match(edit.error ?? "", /not found/i);
  assert.match(
    (await actions.copySkillAction("a-secret-skill", {}, form({ name: "" }))).error ?? "",
    /not found/i,
  );
  assert.match((await actions.deleteSkillAction("a-secret-skill")).error ?? "", /not found/i);
  // A built-in: read-only.
  const builtin = await actions.saveSkillAction(
    "edit",
    {},
    form({ name: "researcher", description: "x", system_prompt: "y" }),
  );
  assert.match(builtin.error ?? "", /built-in/i);
  assert.match((await actions.deleteSkillAction("researcher")).error ?? "", /built-in/i);
  assert.equal(await allSkills(), before);
  // Copy to edit through the action: B's copy, then its edit page.
  await assert.rejects(
    actions.copySkillAction("researcher", {}, form({ name: "" })),
    /NEXT_REDIRECT \/skills\/researcher/,
  );
  const copy = await db.read(({ db: d }) =>
    d.skill.findFirstOrThrow({ where: { name: "researcher", ownerId: ownerB.id } }),
  );
  assert.equal(copy.builtin, false);
  const dup = await actions.copySkillAction("researcher", {}, form({ name: "" }));
  assert.match(dup.error ?? "", /already/i);
});
