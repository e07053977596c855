// The goal's task tree: status, assignee, verifier, budget and spend per node (server component).
import Link from "next/link";
import { Badge, type Tone } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { goalTaskTree, pendingProposalCount, type TaskNodeView } from "@/lib/domain/goals/dashboard";
import { verifierLabel } from "@/lib/domain/proposals/task-tree";

const TASK_TONES: Record<string, Tone> = {
  approved: "slate",
  claimed: "blue",
  in_progress: "blue",
  awaiting_verification: "amber",
  done: "green",
  failed: "red",
  cancelled: "red",
};

const money = (cents: number | null) => (cents === null ? null : `$${(cents / 100).toFixed(2)}`);

function budgetLine(t: TaskNodeView): string {
  const spent = `${money(t.spent_cents)}${t.spent_tokens ? ` · ${t.spent_tokens} tok` : ""}`;
  const budget = [money(t.budget_dollars_cents), t.budget_tokens !== null ? `${t.budget_tokens} tok` : null]
    .filter(Boolean)
    .join(" · ");
  return budget ? `${spent} of ${budget}` : `${spent} spent`;
}

function Node({ task }: { task: TaskNodeView }) {
  return (
    <li id={`task-${task.id}`} data-testid="task-node" data-task-id={task.id} data-status={task.status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
        <span className="font-mono text-xs text-slate-400">#{task.id}</span>
        <span className="font-medium text-slate-900">{task.title}</span>
        <Badge tone={TASK_TONES[task.status] ?? "slate"}>{task.status.replaceAll("_", " ")}</Badge>
        <span className="text-xs text-slate-500">
          {task.assignee_id !== null ? `${task.assignee_name ?? "agent"} #${task.assignee_id}` : "unassigned"}
        </span>
        <span className="text-xs text-slate-500">verifier: {verifierLabel(task.verifier)}</span>
        {task.billing_code ? (
          <span className="font-mono text-xs text-slate-500">{task.billing_code}</span>
        ) : null}
        <span className="ml-auto text-xs text-slate-600">{budgetLine(task)}</span>
      </div>
      {task.verdict_reason && task.status === "failed" ? (
        <p className="pb-2 text-xs whitespace-pre-wrap text-rose-700">{task.verdict_reason}</p>
      ) : null}
      {task.children.length > 0 ? (
        <ul className="ml-4 border-l border-slate-200 pl-4">
          {task.children.map((c) => (
            <Node key={c.id} task={c} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export async function TaskTreePanel({ goalId }: { goalId: number }) {
  const [roots, pending] = await Promise.all([goalTaskTree(goalId), pendingProposalCount(goalId)]);
  return (
    <Panel
      title="Task tree"
      actions={
        pending > 0 ? (
          <Link href="/approvals" className="text-xs font-medium text-amber-700 hover:underline">
            A proposed tree awaits your decision →
          </Link>
        ) : null
      }
    >
      {roots.length === 0 ? (
        <p className="px-5 py-6 text-center text-sm text-slate-500">
          No approved tasks yet. The coordinator's proposal appears in Approvals.
        </p>
      ) : (
        <ul className="px-5 py-2 text-sm" data-testid="task-tree">
          {roots.map((t) => (
            <Node key={t.id} task={t} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
