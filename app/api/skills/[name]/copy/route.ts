import { z } from "zod";
import { copySkill, skillName } from "@/lib/domain/skills/skills";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

type P = { name: string };

const copyInput = z.strictObject({ name: skillName.nullish() });

// POST /api/skills/:name/copy – copy-to-edit: the caller's own copy of a skill they can see (a built-in, or
// their own) under {name?} (default: the same name, which then shadows the built-in for their agents);
// a name the caller has already: 409 name_taken; another owner's skill: 404
export const POST = ownerRoute<P>(async ({ owner, req, params }) => {
  const body = copyInput.parse(await jsonBody(req));
  return Response.json(await copySkill(owner.userId, params.name, body.name), { status: 201 });
});
