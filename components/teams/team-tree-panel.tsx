// Goal page: the team tree — the owner, the coordinator, every leader and its members, live.
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { USER_SENTINEL } from "@/lib/domain/constants";
import type { TreeNode } from "@/lib/domain/teams/goal-team-view";
import { teamView } from "./team-view";

function Node({ node }: { node: TreeNode }) {
  return (
    <li data-testid={`tree-agent-${node.agent_id}`} data-status={node.status}>
      <div className="flex flex-wrap items-center gap-2 py-1">
        <span className="font-medium text-slate-900">{node.name}</span>
        <span className="font-mono text-xs text-slate-400">#{node.agent_id}</span>
        <span className="text-xs text-slate-500">
          {node.role}
          {node.skill && node.skill !== node.role ? ` · ${node.skill}` : ""} · depth {node.depth}
          {node.plan_task_id ? ` · task ${node.plan_task_id}` : ""}
        </span>
        <StatusBadge status={node.status} />
        {node.flags
          .filter((f) => f !== node.status && f !== "terminate_consumed")
          .map((f) => (
            <Badge key={f} tone="amber">
              {f.replaceAll("_", " ")}
            </Badge>
          ))}
        {node.leads.length ? <Badge tone="blue">leader</Badge> : null}
      </div>
      {node.children.length ? (
        <ul className="ml-3 border-l border-slate-200 pl-4">
          {node.children.map((c) => (
            <Node key={c.agent_id} node={c} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export async function TeamTreePanel({ goalId }: { goalId: number }) {
  const { tree } = await teamView(goalId);
  return (
    <Panel title="Team">
      <div className="px-5 py-3 text-sm" data-testid="team-tree">
        <div className="text-xs font-medium text-slate-500">owner ({USER_SENTINEL})</div>
        <ul className="ml-3 border-l border-slate-200 pl-4">
          {tree.map((n) => (
            <Node key={n.agent_id} node={n} />
          ))}
        </ul>
      </div>
    </Panel>
  );
}
