import { createGoal } from "@/lib/domain/goals/create-goal";
import { listGoals } from "@/lib/domain/goals/queries";
import { jsonBody, ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/goals – the owner's goals, most recently active first
export const GET = ownerRoute(async ({ owner }) => listGoals(owner.userId));

// POST /api/goals – create a goal (same input as the create_goal tool)
export const POST = ownerRoute(async ({ owner, req }) =>
  Response.json(await createGoal(owner.userId, (await jsonBody(req)) as never), { status: 201 }),
);
