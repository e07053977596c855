import { deleteSkill, getSkill, saveSkill } from "@/lib/domain/skills/skills";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { name: string };

// GET /api/skills/:name – the caller's own skill of that name, else the built-in (another owner's: 404)
export const GET = ownerRoute<P>(async ({ owner, params }) => getSkill(owner.userId, params.name));

// PUT /api/skills/:name – replace the description, prompt, tools, model… of the caller's own skill;
// a built-in: 409 skill_builtin_read_only (copy it first); another owner's: 404
export const PUT = ownerRoute<P>(async ({ owner, req, params }) =>
  saveSkill(owner.userId, { ...((await jsonBody(req)) as object), name: params.name } as never, {
    create: false,
  }),
);

// DELETE /api/skills/:name – delete the caller's own skill (their agents then get the built-in of that name,
// if any; plans naming a name that resolves no more fail to spawn with unknown_skill); a built-in: 409
export const DELETE = ownerRoute<P>(async ({ owner, params }) => {
  await deleteSkill(owner.userId, params.name);
  return new Response(null, { status: 204 });
});
