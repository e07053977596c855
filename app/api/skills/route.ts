import { listSkills, saveSkill } from "@/lib/domain/skills/skills";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/skills – every skill (built-in and the owners' own)
export const GET = ownerRoute(async () => ({ skills: await listSkills() }));

// POST /api/skills – add a skill {name, description, system_prompt, tools?, model?}
export const POST = ownerRoute(async ({ req }) =>
  Response.json(await saveSkill((await jsonBody(req)) as never, { create: true }), { status: 201 }),
);
