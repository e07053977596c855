"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { cancelGoal } from "@/lib/domain/goals/cancel-goal";
import { cancelTask } from "@/lib/domain/tasks/cancel-task";
import { actionError } from "@/lib/http/form-state";

export type LifecycleResult = { status: string } | { error: string };

/** Issue 13: the owner cancels the goal (the same rule as POST /api/goals/:id/cancel). */
export async function cancelGoalAction(goalId: number, reason: string): Promise<LifecycleResult> {
  const owner = await requireOwner();
  try {
    const r = await cancelGoal(owner.userId, goalId, { reason: reason.trim() || undefined });
    revalidatePath("/goals/[id]", "page");
    return { status: r.status };
  } catch (e) {
    return { error: actionError(e) };
  }
}

/** Issue 13: the owner writes off (cancels) a task, e.g. a stuck goal's failed task (POST …/tasks/:id/cancel). */
export async function cancelTaskAction(goalId: number, taskId: number): Promise<LifecycleResult> {
  const owner = await requireOwner();
  try {
    const r = await cancelTask(owner.userId, goalId, taskId);
    revalidatePath("/goals/[id]", "page");
    return { status: r.status };
  } catch (e) {
    return { error: actionError(e) };
  }
}
