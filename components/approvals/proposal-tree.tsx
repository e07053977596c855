import type { TaskNode } from "@/lib/domain/proposals/task-tree";
import { verifierLabel } from "@/lib/domain/proposals/task-tree";

const money = (cents: number | undefined) => (cents === undefined ? null : `$${(cents / 100).toFixed(2)}`);

/** A proposed tree, rendered readably: every field the owner approves. */
export function ProposalTree({ node }: { node: TaskNode }) {
  const facts = [
    node.billing_code ? `billing ${node.billing_code}` : null,
    money(node.budget_dollars_cents),
    node.budget_tokens !== undefined ? `${node.budget_tokens} tokens` : null,
    `verifier: ${verifierLabel(node.verifier_config)}`,
  ].filter(Boolean);
  return (
    <li className="py-1.5" data-testid="proposal-node">
      <p className="font-medium text-slate-900">{node.title}</p>
      <p className="text-xs text-slate-500">{facts.join(" · ")}</p>
      <p className="mt-0.5 text-sm whitespace-pre-wrap text-slate-700">{node.description}</p>
      {node.acceptance_criteria ? (
        <p className="mt-0.5 text-xs whitespace-pre-wrap text-slate-600">
          <span className="font-semibold">Acceptance:</span> {node.acceptance_criteria}
        </p>
      ) : null}
      {node.children?.length ? (
        <ul className="mt-1 ml-3 border-l border-slate-200 pl-4">
          {node.children.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a proposal's nodes have no ids; order is fixed
            <ProposalTree key={i} node={c} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
