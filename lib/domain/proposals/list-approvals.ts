import { z } from "zod";
import { read } from "@/lib/db";
import type { TaskNode } from "./task-tree";

export const listApprovalsQuery = z.strictObject({
  status: z.enum(["pending", "decided"]).default("pending"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type ApprovalView = {
  proposal_message_id: number;
  proposal_id: number;
  kind: string;
  goal: { id: number; slug: string; title: string };
  proposer: { agent_id: number; name: string | null };
  status: string;
  reasoning: string | null;
  tree: TaskNode;
  task_count: number;
  content_hash: string;
  reason: string | null;
  created_at: string;
  decided_at: string | null;
};

const countNodes = (n: TaskNode): number => 1 + (n.children ?? []).reduce((s, c) => s + countNodes(c), 0);

/** The owner's task-tree proposals in `#approvals`: pending (oldest first) or decided (newest first). */
export async function listApprovals(ownerId: number, q: z.input<typeof listApprovalsQuery> = {}) {
  const { status, limit } = listApprovalsQuery.parse(q);
  const rows = await read(({ db }) =>
    db.proposal.findMany({
      where: {
        kind: "task_tree",
        goal: { ownerId },
        status: status === "pending" ? "pending" : { in: ["approved", "rejected"] },
        messageId: { not: null },
      },
      orderBy: status === "pending" ? { id: "asc" } : { decidedAt: "desc" },
      take: limit,
      include: { goal: { select: { id: true, slug: true, title: true } } },
    }),
  );
  const proposerIds = [...new Set(rows.map((r) => r.proposerId))];
  const agents = proposerIds.length
    ? await read(({ db }) =>
        db.agent.findMany({ where: { id: { in: proposerIds } }, select: { id: true, name: true } }),
      )
    : [];
  return rows.map((p): ApprovalView => {
    const payload = JSON.parse(p.payloadJson) as { reasoning: string | null; tree: TaskNode };
    return {
      proposal_message_id: p.messageId ?? 0,
      proposal_id: p.id,
      kind: p.kind,
      goal: p.goal,
      proposer: { agent_id: p.proposerId, name: agents.find((a) => a.id === p.proposerId)?.name ?? null },
      status: p.status,
      reasoning: payload.reasoning,
      tree: payload.tree,
      task_count: countNodes(payload.tree),
      content_hash: p.contentHash,
      reason: p.reason,
      created_at: p.createdAt.toISOString(),
      decided_at: p.decidedAt?.toISOString() ?? null,
    };
  });
}
