import { z } from "zod";
import { read } from "@/lib/db";
import { goalTaskOr404 } from "@/lib/domain/tasks/claim-task";
import { MAX_DB_INT } from "@/lib/ids";
import { PRECEDENCE, SCOPE_TYPES } from "./schemas";

export const listResourcesInput = z.strictObject({
  task_id: z
    .number()
    .int()
    .positive()
    .max(MAX_DB_INT)
    .optional()
    .describe("Optional: if provided, task-scoped secrets are included"),
});

export const listResourcesOutput = z.object({
  resources: z.array(z.object({ name: z.string(), scope: z.enum(SCOPE_TYPES), available: z.boolean() })),
});

/**
 * `list_resources`: the secret names in the caller's scopes — its owner's (all their agents), its own, and
 * the task's when `task_id` names a task of its goal — and whether a value is present (a revoked one is
 * listed unavailable). Never a value, its length or its age. Ordered by precedence (task first), then name.
 */
export async function listResources(
  caller: { agentId: number; goalId: number },
  input: z.infer<typeof listResourcesInput>,
) {
  return read(async (u) => {
    if (input.task_id !== undefined) await goalTaskOr404(u, caller.goalId, input.task_id);
    const goal = await u.db.goal.findUniqueOrThrow({
      where: { id: caller.goalId },
      select: { ownerId: true },
    });
    const rows = await u.db.secret.findMany({
      where: {
        ownerId: goal.ownerId,
        OR: [
          { scopeType: "user", scopeId: goal.ownerId },
          { scopeType: "agent", scopeId: caller.agentId },
          ...(input.task_id !== undefined ? [{ scopeType: "task", scopeId: input.task_id }] : []),
        ],
      },
      select: { name: true, scopeType: true, ciphertext: true },
    });
    const resources = rows
      .map((r) => ({
        name: r.name,
        scope: r.scopeType as (typeof SCOPE_TYPES)[number],
        available: r.ciphertext !== null,
      }))
      .sort((a, b) => PRECEDENCE[b.scope] - PRECEDENCE[a.scope] || a.name.localeCompare(b.name));
    return { resources };
  });
}
