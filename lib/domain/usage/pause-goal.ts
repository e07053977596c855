import { z } from "zod";
import { write } from "@/lib/db";
import { ownedGoal } from "@/lib/domain/goals/owned";
import { DomainError } from "@/lib/errors";
import { pauseInUnit } from "./budget";

export const pauseGoalInput = z.strictObject({ goal_id: z.number().int().positive() });
export const pauseGoalOutput = z.object({ goal_id: z.number().int(), status: z.string() });

/**
 * The owner pauses a goal by hand (`pause_goal` over MCP, `POST /api/goals/:id/pause`, the goal page's button). A paused goal
 * stays paused (idempotent); a completed or cancelled one is `goal_finished`.
 */
export async function pauseGoal(ownerId: number, goalId: number) {
  return write(async (u) => {
    const goal = await ownedGoal(u, ownerId, goalId);
    if (goal.status === "completed" || goal.status === "cancelled") {
      throw new DomainError("goal_finished", `Goal ${goalId} is ${goal.status}; it cannot be paused.`, {
        details: { goal_id: goalId, status: goal.status },
      });
    }
    const spent = { micros: goal.spentCents * 1_000_000 + goal.spentMicros, tokens: goal.spentTokens };
    await pauseInUnit(u, goalId, "manual", null, spent, {
      cents: goal.budgetCents,
      tokens: goal.budgetTokens,
    });
    return { goal_id: goalId, status: "paused" };
  });
}
