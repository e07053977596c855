import { z } from "zod";
import { read } from "@/lib/db";
import { MAX_DB_INT } from "@/lib/ids";

export const listRequestsQuery = z.strictObject({
  status: z.enum(["open", "decided"]).default("open"),
  goal_id: z.coerce.number().int().positive().max(MAX_DB_INT).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type RequestView = {
  request_id: number;
  request_message_id: number | null;
  goal: { id: number; title: string };
  agent: { agent_id: number; name: string | null };
  task: { task_id: number; title: string | null };
  name: string;
  resource_type: string;
  reason: string;
  status: string;
  scope: string | null;
  scope_id: number | null;
  decline_reason: string | null;
  created_at: string;
  decided_at: string | null;
};

/** The owner's resource requests in `#requests`: open (oldest first) or decided (newest first). */
export async function listRequests(ownerId: number, q: z.input<typeof listRequestsQuery> = {}) {
  const { status, goal_id, limit } = listRequestsQuery.parse(q);
  return read(async ({ db }) => {
    const rows = await db.resourceRequest.findMany({
      where: {
        ownerId,
        status: status === "open" ? "open" : { in: ["supplied", "declined"] },
        ...(goal_id ? { goalId: goal_id } : {}),
      },
      orderBy: status === "open" ? { id: "asc" } : { decidedAt: "desc" },
      take: limit,
    });
    const ids = (k: "goalId" | "agentId" | "taskId") => [...new Set(rows.map((r) => r[k]))];
    const [goals, agents, tasks] = await Promise.all([
      db.goal.findMany({ where: { id: { in: ids("goalId") } }, select: { id: true, title: true } }),
      db.agent.findMany({ where: { id: { in: ids("agentId") } }, select: { id: true, name: true } }),
      db.goalTask.findMany({ where: { id: { in: ids("taskId") } }, select: { id: true, title: true } }),
    ]);
    return rows.map(
      (r): RequestView => ({
        request_id: r.id,
        request_message_id: r.messageId,
        goal: { id: r.goalId, title: goals.find((g) => g.id === r.goalId)?.title ?? "" },
        agent: { agent_id: r.agentId, name: agents.find((a) => a.id === r.agentId)?.name ?? null },
        task: { task_id: r.taskId, title: tasks.find((t) => t.id === r.taskId)?.title ?? null },
        name: r.name,
        resource_type: r.resourceType,
        reason: r.reason,
        status: r.status,
        scope: r.scopeType,
        scope_id: r.scopeId,
        decline_reason: r.declineReason,
        created_at: r.createdAt.toISOString(),
        decided_at: r.decidedAt?.toISOString() ?? null,
      }),
    );
  });
}

/** How many requests wait for the owner (the nav badge). */
export function countOpenRequests(ownerId: number): Promise<number> {
  return read(({ db }) => db.resourceRequest.count({ where: { ownerId, status: "open" } }));
}
