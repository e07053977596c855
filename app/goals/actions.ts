"use server";

import { redirect } from "next/navigation";
import { requireOwner } from "@/lib/auth/require-owner";
import { createGoal } from "@/lib/domain/goals/create-goal";
import { type FormState, failure, formValues } from "@/lib/http/form-state";

const FIELDS = [
  "title",
  "description",
  "budget_dollars_cents",
  "budget_tokens",
  "max_spawn_depth",
  "coordinator_config",
] as const;

const optionalNumber = (v: string | undefined) => (v?.trim() ? Number(v) : undefined);

export async function createGoalAction(_: FormState, form: FormData): Promise<FormState> {
  const owner = await requireOwner();
  const values = formValues(form, FIELDS);
  let goalId: number;
  try {
    const goal = await createGoal(owner.userId, {
      title: values.title?.trim() ?? "",
      description: values.description?.trim() ?? "",
      budget_dollars_cents: optionalNumber(values.budget_dollars_cents),
      budget_tokens: optionalNumber(values.budget_tokens),
      max_spawn_depth: optionalNumber(values.max_spawn_depth),
      coordinator_config: values.coordinator_config?.trim() || undefined,
    });
    goalId = goal.goal_id;
  } catch (e) {
    return failure(e, values);
  }
  redirect(`/goals/${goalId}`);
}
