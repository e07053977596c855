import { read } from "@/lib/db";
import { agentStatus } from "@/lib/domain/agents/agents";

export type TreeNode = {
  agent_id: number;
  name: string;
  role: string;
  skill: string | null;
  depth: number;
  status: string;
  flags: string[];
  leads: string[];
  plan_task_id: string | null;
  children: TreeNode[];
};

export type DagNode = {
  id: string;
  role: string;
  skill: string;
  status: string;
  depends_on: string[];
  agent_id: number | null;
  agent_name: string | null;
  layer: number;
  row: number;
};

export type PlanView = {
  plan_id: string;
  leader_id: number;
  leader_name: string;
  status: string;
  created_at: string;
  tasks: DagNode[];
};

export type PendingReviewView = {
  agent_id: number;
  name: string;
  leader: string;
  since: string;
  summary: string;
};

/** Layer of each task in its DAG: 0 without dependencies, else one more than its deepest dependency. */
export function layers(tasks: { key: string; deps: string[] }[]): Map<string, number> {
  const byId = new Map(tasks.map((t) => [t.key, t]));
  const out = new Map<string, number>();
  const layerOf = (id: string, seen: Set<string>): number => {
    const known = out.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const deps = byId.get(id)?.deps ?? [];
    const l = deps.length ? 1 + Math.max(...deps.map((d) => layerOf(d, seen))) : 0;
    out.set(id, l);
    return l;
  };
  for (const t of tasks) layerOf(t.key, new Set());
  return out;
}

/** What the goal page shows of the goal's teams: the tree of agents, each plan's DAG, pending reviews. */
export async function goalTeamView(goalId: number) {
  const { agents, teams, plans, tasks } = await read(async ({ db }) => ({
    agents: await db.agent.findMany({ where: { goalId }, orderBy: { id: "asc" } }),
    teams: await db.team.findMany({ where: { goalId }, orderBy: { createdAt: "asc" } }),
    plans: await db.plan.findMany({ where: { goalId }, orderBy: { createdAt: "asc" } }),
    tasks: await db.planTask.findMany({ where: { plan: { goalId } }, orderBy: { position: "asc" } }),
  }));
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const nodes = new Map<number, TreeNode>(
    agents.map((a) => {
      const flags: string[] = [];
      if (a.reviewPending) flags.push("review_pending");
      if (a.terminationRequested) flags.push("termination_requested");
      if (a.terminatePostedAt && !a.terminateConsumed) flags.push("terminating");
      if (a.terminateConsumed) flags.push("terminate_consumed");
      if (a.quarantinedAt) flags.push("quarantined");
      return [
        a.id,
        {
          agent_id: a.id,
          name: a.name,
          role: a.role,
          skill: a.skill,
          depth: a.spawnDepth,
          status: agentStatus(a),
          flags,
          leads: teams.filter((t) => t.leaderId === a.id).map((t) => t.id),
          plan_task_id: a.planTaskId,
          children: [],
        },
      ];
    }),
  );
  const roots: TreeNode[] = [];
  for (const a of agents) {
    const node = nodes.get(a.id) as TreeNode;
    const parent = a.leaderId === null ? undefined : nodes.get(a.leaderId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const planViews: PlanView[] = plans.map((p) => {
    const own = tasks
      .filter((t) => t.planId === p.id)
      .map((t) => ({ ...t, deps: JSON.parse(t.dependsOnJson) as string[] }));
    const layer = layers(own);
    const rows = new Map<number, number>();
    return {
      plan_id: p.id,
      leader_id: p.leaderId,
      leader_name: names.get(p.leaderId) ?? `agent ${p.leaderId}`,
      status: p.status,
      created_at: p.createdAt.toISOString(),
      tasks: own.map((t) => {
        const l = layer.get(t.key) ?? 0;
        const row = rows.get(l) ?? 0;
        rows.set(l, row + 1);
        return {
          id: t.key,
          role: t.role,
          skill: t.skill,
          status: t.status,
          depends_on: t.deps,
          agent_id: t.agentId,
          agent_name: t.agentId === null ? null : (names.get(t.agentId) ?? null),
          layer: l,
          row,
        };
      }),
    };
  });
  const reviews: PendingReviewView[] = agents
    .filter((a) => a.reviewPending && a.reviewPendingAt)
    .sort((a, b) => (a.reviewPendingAt?.getTime() ?? 0) - (b.reviewPendingAt?.getTime() ?? 0))
    .map((a) => ({
      agent_id: a.id,
      name: a.name,
      leader: a.leaderId === null ? "owner" : (names.get(a.leaderId) ?? `agent ${a.leaderId}`),
      since: (a.reviewPendingAt as Date).toISOString(),
      summary: a.reviewDetail ?? "",
    }));
  return { tree: roots, plans: planViews, reviews };
}
