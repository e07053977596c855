// #approvals: the task trees and agents awaiting the owner (approve / reject with a reason) and the decided ones.
// Live through the shell's InboxLive.
import Link from "next/link";
import { AgentProposal } from "@/components/approvals/agent-proposal";
import { DecisionForm } from "@/components/approvals/decision-form";
import { ProposalTree } from "@/components/approvals/proposal-tree";
import { TreeCommands } from "@/components/approvals/tree-commands";
import { StatusBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { type ApprovalView, listApprovals } from "@/lib/domain/proposals/list-approvals";
import { treeCommands } from "@/lib/domain/proposals/task-tree";

export const dynamic = "force-dynamic";

function Proposal({ p }: { p: ApprovalView }) {
  return (
    <article
      className="space-y-3 px-5 py-4"
      data-testid="proposal"
      data-proposal-id={p.proposal_message_id}
      data-kind={p.kind}
    >
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <Link href={`/goals/${p.goal.id}`} className="font-semibold text-slate-900 hover:underline">
          {p.goal.title}
        </Link>
        <span className="text-slate-500">
          · {p.agent ? `agent ${p.agent.name}` : `${p.task_count} task${p.task_count === 1 ? "" : "s"}`}{" "}
          proposed by {p.proposer.name ?? "agent"} #{p.proposer.agent_id}
        </span>
        <StatusBadge status={p.status} />
        <span className="ml-auto text-xs text-slate-400">
          <LocalTime iso={p.decided_at ?? p.created_at} />
        </span>
      </header>
      {p.agent ? (
        <AgentProposal a={p.agent} />
      ) : (
        <>
          {p.reasoning ? <p className="text-sm whitespace-pre-wrap text-slate-600">{p.reasoning}</p> : null}
          {p.tree ? (
            <>
              <TreeCommands tree={p.tree} />
              <ul className="text-sm">
                <ProposalTree node={p.tree} />
              </ul>
            </>
          ) : null}
        </>
      )}
      {p.status === "pending" ? (
        <DecisionForm
          messageId={p.proposal_message_id}
          contentHash={p.content_hash}
          commands={p.tree ? treeCommands(p.tree).length : 0}
        />
      ) : p.reason ? (
        <p className="text-sm text-rose-700">Rejected: {p.reason}</p>
      ) : null}
    </article>
  );
}

export default async function ApprovalsPage() {
  const owner = await requireOwner();
  const [pending, decided] = await Promise.all([
    listApprovals(owner.userId, { status: "pending" }),
    listApprovals(owner.userId, { status: "decided", limit: 20 }),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">#approvals</h1>
      <Panel title={`Pending (${pending.length})`}>
        {pending.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500">Nothing awaits your decision.</p>
        ) : (
          <div className="divide-y divide-slate-100">
            {pending.map((p) => (
              <Proposal key={p.proposal_id} p={p} />
            ))}
          </div>
        )}
      </Panel>
      <Panel title="Decided">
        {decided.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500">No decisions yet.</p>
        ) : (
          <div className="divide-y divide-slate-100">
            {decided.map((p) => (
              <Proposal key={p.proposal_id} p={p} />
            ))}
          </div>
        )}
      </Panel>
    </div>
  );
}
