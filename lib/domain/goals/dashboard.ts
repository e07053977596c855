import { read } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { recentEvents } from "@/lib/domain/events/recent-events";
import type { VerifierConfig } from "@/lib/domain/proposals/task-tree";
import { costBreakdown } from "@/lib/domain/usage/cost-report";
import { ownedGoal } from "./owned";

const iso = (d: SqlDate | null) => (d === null ? null : toIso(d));

type GoalRow = {
  id: number;
  slug: string;
  title: string;
  status: string;
  ownerId: number;
  channelId: number | null;
  spentCents: number;
  spentTokens: number;
  budgetCents: number | null;
  budgetTokens: number | null;
  lastActivityAt: SqlDate;
  taskCount: number;
  tasksDone: number;
  tasksFailed: number;
};

export type GoalProgress = { total: number; done: number; failed: number };

/**
 * The owner's goals for the dashboard, most recently active first: the contract's `GET /api/goals` row
 * plus task progress. One indexed query, whatever the number of tasks: the counts are the goal's own
 * counters, kept in the same transactions that create tasks and record verdicts.
 */
export async function goalDashboard(ownerId: number) {
  const goals = await read(({ sql }) =>
    sql.all<GoalRow>(
      `SELECT id, slug, title, status, "ownerId", "channelId", "spentCents", "spentTokens", "budgetCents", "budgetTokens",
              "lastActivityAt", "taskCount", "tasksDone", "tasksFailed"
       FROM "Goal" WHERE "ownerId" = ? ORDER BY "lastActivityAt" DESC, id DESC`,
      ownerId,
    ),
  );
  return goals.map((g) => ({
    id: Number(g.id),
    slug: g.slug,
    title: g.title,
    status: g.status,
    owner_user_id: Number(g.ownerId),
    channel_id: g.channelId === null ? null : Number(g.channelId),
    cost_totals: {
      spent_cents: Number(g.spentCents),
      spent_tokens: Number(g.spentTokens),
      budget_cents: g.budgetCents === null ? null : Number(g.budgetCents),
      budget_tokens: g.budgetTokens === null ? null : Number(g.budgetTokens),
    },
    task_count: Number(g.taskCount),
    last_activity_at: iso(g.lastActivityAt) ?? "",
    progress: { total: Number(g.taskCount), done: Number(g.tasksDone), failed: Number(g.tasksFailed) },
  }));
}

export type TaskNodeView = {
  id: number;
  parent_id: number | null;
  depth: number;
  title: string;
  description: string;
  acceptance_criteria: string | null;
  billing_code: string | null;
  status: string;
  assignee_id: number | null;
  assignee_name: string | null;
  verifier: VerifierConfig;
  budget_tokens: number | null;
  budget_dollars_cents: number | null;
  spent_cents: number;
  spent_tokens: number;
  claimed_at: string | null;
  summary: string | null;
  verdict_reason: string | null;
  children: TaskNodeView[];
};

type TaskRow = {
  id: number;
  parentId: number | null;
  depth: number;
  title: string;
  description: string;
  acceptanceCriteria: string | null;
  billingCode: string | null;
  status: string;
  assigneeId: number | null;
  assigneeName: string | null;
  verifierJson: string;
  budgetTokens: number | null;
  budgetCents: number | null;
  spentCents: number;
  spentTokens: number;
  claimedAt: SqlDate | null;
  summary: string | null;
  verdictReason: string | null;
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The goal's task tree (roots in id order, children nested), spend per node rolled up (itself and its subtree). */
export async function goalTaskTree(goalId: number): Promise<TaskNodeView[]> {
  const rows = await read(({ sql }) =>
    sql.all<TaskRow>(
      `SELECT t.id, t."parentId", t.depth, t.title, t.description, t."acceptanceCriteria", t."billingCode", t.status,
              t."assigneeId", a.name AS "assigneeName", t."verifierJson", t."budgetTokens", t."budgetCents",
              t."spentCents", t."spentTokens",
              t."claimedAt", t.summary, t."verdictReason"
       FROM "GoalTask" t
       LEFT JOIN "Agent" a ON a.id = t."assigneeId"
       WHERE t."goalId" = ? ORDER BY t.id`,
      goalId,
    ),
  );
  const byId = new Map<number, TaskNodeView>();
  const roots: TaskNodeView[] = [];
  for (const r of rows) {
    const node: TaskNodeView = {
      id: Number(r.id),
      parent_id: num(r.parentId),
      depth: Number(r.depth),
      title: r.title,
      description: r.description,
      acceptance_criteria: r.acceptanceCriteria,
      billing_code: r.billingCode,
      status: r.status,
      assignee_id: num(r.assigneeId),
      assignee_name: r.assigneeName,
      verifier: JSON.parse(r.verifierJson) as VerifierConfig,
      budget_tokens: num(r.budgetTokens),
      budget_dollars_cents: num(r.budgetCents),
      spent_cents: Number(r.spentCents),
      spent_tokens: Number(r.spentTokens),
      claimed_at: iso(r.claimedAt),
      summary: r.summary,
      verdict_reason: r.verdictReason,
      children: [],
    };
    byId.set(node.id, node);
    const parent = node.parent_id === null ? undefined : byId.get(node.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** `GET /api/goals/:id`: {goal, tasks_tree, spawned_agents, cost_breakdown, recent_events}. */
export async function goalSnapshot(ownerId: number, goalId: number) {
  const goal = await read((u) => ownedGoal(u, ownerId, goalId));
  const [tasks_tree, agents, cost_breakdown, recent_events] = await Promise.all([
    goalTaskTree(goal.id),
    read(({ db }) => db.agent.findMany({ where: { goalId: goal.id }, orderBy: { id: "asc" } })),
    costBreakdown(goal),
    recentEvents(goal.id, 50),
  ]);
  return {
    goal: {
      id: goal.id,
      slug: goal.slug,
      title: goal.title,
      description: goal.description,
      status: goal.status,
      owner_user_id: goal.ownerId,
      channel_id: goal.channelId,
      coordinator_agent_id: goal.coordinatorAgentId,
      budget_dollars_cents: goal.budgetCents,
      budget_tokens: goal.budgetTokens,
      spent_cents: goal.spentCents,
      spent_tokens: goal.spentTokens,
      paused_reason: goal.pausedReason,
      budget_alerted_at: goal.budgetAlertedAt?.toISOString() ?? null,
      max_spawn_depth: goal.maxSpawnDepth,
      coordinator_config: goal.coordinatorConfig,
      created_at: goal.createdAt.toISOString(),
      last_activity_at: goal.lastActivityAt.toISOString(),
    },
    tasks_tree,
    spawned_agents: agents.map((a) => ({
      agent_id: a.id,
      name: a.name,
      role: a.role,
      parent_agent_id: a.leaderId,
      leader: a.leaderId === null ? USER_SENTINEL : String(a.leaderId),
      spawn_depth: a.spawnDepth,
      status: a.status,
      config_hash: a.configHash,
      quarantined: a.quarantinedAt !== null,
      created_at: a.createdAt.toISOString(),
    })),
    cost_breakdown,
    recent_events,
  };
}

/** How many task-tree proposals of the goal await the owner. */
export async function pendingProposalCount(goalId: number): Promise<number> {
  return read(({ db }) => db.proposal.count({ where: { goalId, kind: "task_tree", status: "pending" } }));
}
