// Goal page: header, crash notices, the agents (team-tree order, run states, links to transcripts), and
// the live message feed and event timeline.
import { notFound } from "next/navigation";
import { type AgentRow, AgentsPanel } from "@/components/goals/agents-panel";
import { BudgetBanner, CostsPanel } from "@/components/goals/costs-panel";
import { GoalHeader } from "@/components/goals/goal-header";
import { GoalLifecycle } from "@/components/goals/goal-lifecycle";
import { GoalLive } from "@/components/goals/goal-live";
import { GoalQuestionsPanel } from "@/components/questions/goal-questions-panel";
import { OwnerMessageForm } from "@/components/questions/owner-message-form";
import { CrashedNotice } from "@/components/runner/crashed-notice";
import { OpenRequestsPanel } from "@/components/secrets/open-requests-panel";
import { TaskTreePanel } from "@/components/tasks/task-tree-panel";
import { PendingReviewsPanel } from "@/components/teams/pending-reviews-panel";
import { PlanDagPanel } from "@/components/teams/plan-dag-panel";
import { teamView } from "@/components/teams/team-view";
import { requireOwner } from "@/lib/auth/require-owner";
import { listGoalAgents } from "@/lib/domain/agents/agents";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { recentEvents } from "@/lib/domain/events/recent-events";
import { getOwnedGoal } from "@/lib/domain/goals/queries";
import { recentGoalMessages } from "@/lib/domain/goals/recent-messages";
import type { TreeNode } from "@/lib/domain/teams/goal-team-view";
import { isDomainError } from "@/lib/errors";
import { idParam } from "@/lib/http/rest";

/** The owner's goal named by the URL, or the 404 page (a malformed id included, as in the REST API). */
async function ownedGoalOr404(ownerId: number, rawId: string) {
  try {
    return await getOwnedGoal(ownerId, idParam(rawId, "goal"));
  } catch (e) {
    if (isDomainError(e) && e.code === "not_found") notFound();
    throw e;
  }
}

export default async function GoalPage({ params }: { params: Promise<{ id: string }> }) {
  const owner = await requireOwner();
  const goal = await ownedGoalOr404(owner.userId, (await params).id);
  const [agents, messages, events, team] = await Promise.all([
    listGoalAgents(goal.id),
    recentGoalMessages(goal.id),
    recentEvents(goal.id),
    teamView(goal.id),
  ]);
  const rows = treeOrder(agents, team.tree, goal.coordinatorAgentId);
  return (
    <div className="space-y-6">
      <GoalHeader goal={goal} />
      <BudgetBanner goal={goal} />
      <GoalLifecycle goalId={goal.id} />
      <CrashedNotice goalId={goal.id} coordinatorId={goal.coordinatorAgentId} agents={agents} />
      <GoalQuestionsPanel ownerId={owner.userId} goalId={goal.id} />
      <OpenRequestsPanel ownerId={owner.userId} goalId={goal.id} />
      <AgentsPanel goalId={goal.id} agents={rows} />
      <TaskTreePanel goalId={goal.id} />
      <CostsPanel goal={goal} />
      <OwnerMessageForm agents={agents} />
      <PlanDagPanel goalId={goal.id} />
      <PendingReviewsPanel goalId={goal.id} />
      <GoalLive goalId={goal.id} messages={messages} events={events} />
    </div>
  );
}

/** The agents in team-tree order (depth first, as the tree panel used to show them), each with its level. */
function treeOrder(
  agents: Awaited<ReturnType<typeof listGoalAgents>>,
  tree: TreeNode[],
  coordinatorId: number | null,
): AgentRow[] {
  const byId = new Map(agents.map((a) => [a.agent_id, a]));
  const names = new Map(agents.map((a) => [String(a.agent_id), a.name]));
  const out: AgentRow[] = [];
  const visit = (n: TreeNode, level: number) => {
    const a = byId.get(n.agent_id);
    if (a) {
      out.push({
        ...a,
        leader_label: a.leader === USER_SENTINEL ? "owner" : `${names.get(a.leader) ?? "agent"} #${a.leader}`,
        level,
        flags: n.flags,
        is_leader: n.leads.length > 0,
        plan_task_id: n.plan_task_id,
        is_coordinator: a.agent_id === coordinatorId,
      });
    }
    for (const c of n.children) visit(c, level + 1);
  };
  for (const n of tree) visit(n, 0);
  return out;
}
