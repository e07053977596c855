import { deleteSkill, getSkill, saveSkill } from "@/lib/domain/skills/skills";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { name: string };

// GET /api/skills/:name – one skill
export const GET = ownerRoute<P>(async ({ params }) => getSkill(params.name));

// PUT /api/skills/:name – replace a skill's description, prompt, tools and model
export const PUT = ownerRoute<P>(async ({ req, params }) =>
  saveSkill({ ...((await jsonBody(req)) as object), name: params.name } as never, { create: false }),
);

// DELETE /api/skills/:name – delete a skill (plans naming it then fail to spawn with unknown_skill)
export const DELETE = ownerRoute<P>(async ({ params }) => {
  await deleteSkill(params.name);
  return new Response(null, { status: 204 });
});
