import { z } from "zod";
import { read } from "@/lib/db";
import { parseScope } from "@/lib/domain/agents/tool-scope";
import type { AgentPayload } from "./agent-proposal";
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
  /** kind `task_tree`: the tree (else null) and its size. */
  tree: TaskNode | null;
  task_count: number;
  /** kind `agent`: the proposed agent as stored, and the proposer's own scope now (null: every agent tool). */
  agent: (AgentPayload & { proposer_tool_scope: string[] | null; proposer_autonomy_tier: string }) | null;
  content_hash: string;
  reason: string | null;
  created_at: string;
  decided_at: string | null;
};

const countNodes = (n: TaskNode): number => 1 + (n.children ?? []).reduce((s, c) => s + countNodes(c), 0);

/** The owner's proposals in `#approvals` (task trees and agents): pending (oldest first) or decided (newest first). */
export async function listApprovals(ownerId: number, q: z.input<typeof listApprovalsQuery> = {}) {
  const { status, limit } = listApprovalsQuery.parse(q);
  const rows = await read(({ db }) =>
    db.proposal.findMany({
      where: {
        kind: { in: ["task_tree", "agent"] },
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
        db.agent.findMany({
          where: { id: { in: proposerIds } },
          select: { id: true, name: true, toolScopeJson: true, autonomyTier: true },
        }),
      )
    : [];
  return rows.map((p): ApprovalView => {
    const proposer = agents.find((a) => a.id === p.proposerId);
    const common = {
      proposal_message_id: p.messageId ?? 0,
      proposal_id: p.id,
      kind: p.kind,
      goal: p.goal,
      proposer: { agent_id: p.proposerId, name: proposer?.name ?? null },
      status: p.status,
      content_hash: p.contentHash,
      reason: p.reason,
      created_at: p.createdAt.toISOString(),
      decided_at: p.decidedAt?.toISOString() ?? null,
    };
    if (p.kind === "agent") {
      const payload = JSON.parse(p.payloadJson) as AgentPayload;
      return {
        ...common,
        reasoning: payload.reason,
        tree: null,
        task_count: 0,
        agent: {
          ...payload,
          proposer_tool_scope: (parseScope(proposer?.toolScopeJson) as string[] | null) ?? null,
          proposer_autonomy_tier: proposer?.autonomyTier ?? "autonomous",
        },
      };
    }
    const payload = JSON.parse(p.payloadJson) as { reasoning: string | null; tree: TaskNode };
    return {
      ...common,
      reasoning: payload.reasoning,
      tree: payload.tree,
      task_count: countNodes(payload.tree),
      agent: null,
    };
  });
}
