import { listSkills, saveSkill } from "@/lib/domain/skills/skills";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/skills – the caller's own skills and the built-ins (builtin: true; shadowed: the caller has a
// skill of the same name, which their agents get instead)
export const GET = ownerRoute(async ({ owner }) => ({ skills: await listSkills(owner.userId) }));

// POST /api/skills – add a skill of the caller's {name, description, system_prompt, tools?, model?, …};
// a name the caller has already: 409 name_taken (a built-in's name is allowed: it shadows the built-in)
export const POST = ownerRoute(async ({ owner, req }) =>
  Response.json(await saveSkill(owner.userId, (await jsonBody(req)) as never, { create: true }), {
    status: 201,
  }),
);
