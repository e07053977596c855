import { z } from "zod";
import { read } from "@/lib/db";

export const TASK_STATUSES = [
  "proposed",
  "approved",
  "claimed",
  "in_progress",
  "awaiting_verification",
  "done",
  "failed",
  "cancelled",
] as const;

export const listTasksInput = z.strictObject({
  status: z.enum(TASK_STATUSES).optional().describe("Only tasks in this status (e.g. approved = claimable)."),
  limit: z.number().int().min(1).max(500).default(100),
});

export const taskSummary = z.object({
  task_id: z.number().int(),
  parent_id: z.number().int().nullable(),
  depth: z.number().int(),
  title: z.string(),
  status: z.string(),
  assignee_id: z.number().int().nullable(),
  billing_code: z.string().nullable(),
  verifier: z.string(),
  acceptance_criteria: z.string().nullable(),
});

export const listTasksOutput = z.object({ tasks: z.array(taskSummary) });

/** `list_tasks` (ours): the tasks of the caller's goal, in tree order by id. */
export async function listTasks(goalId: number, input: z.infer<typeof listTasksInput>) {
  const rows = await read(({ db }) =>
    db.goalTask.findMany({
      where: { goalId, ...(input.status ? { status: input.status } : {}) },
      orderBy: { id: "asc" },
      take: input.limit,
    }),
  );
  return {
    tasks: rows.map((t) => ({
      task_id: t.id,
      parent_id: t.parentId,
      depth: t.depth,
      title: t.title,
      status: t.status,
      assignee_id: t.assigneeId,
      billing_code: t.billingCode,
      verifier: t.verifierKind,
      acceptance_criteria: t.acceptanceCriteria,
    })),
  };
}
