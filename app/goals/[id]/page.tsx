// Goal page: header, agents with their keys, and the live message feed and event timeline.
import { notFound } from "next/navigation";
import { AgentsPanel } from "@/components/goals/agents-panel";
import { BudgetBanner, CostsPanel } from "@/components/goals/costs-panel";
import { GoalHeader } from "@/components/goals/goal-header";
import { GoalLive } from "@/components/goals/goal-live";
import { GoalQuestionsPanel } from "@/components/questions/goal-questions-panel";
import { OwnerMessageForm } from "@/components/questions/owner-message-form";
import { OpenRequestsPanel } from "@/components/secrets/open-requests-panel";
import { TaskTreePanel } from "@/components/tasks/task-tree-panel";
import { PendingReviewsPanel } from "@/components/teams/pending-reviews-panel";
import { PlanDagPanel } from "@/components/teams/plan-dag-panel";
import { TeamTreePanel } from "@/components/teams/team-tree-panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listGoalAgents } from "@/lib/domain/agents/agents";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { recentEvents } from "@/lib/domain/events/recent-events";
import { getOwnedGoal } from "@/lib/domain/goals/queries";
import { recentGoalMessages } from "@/lib/domain/goals/recent-messages";
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
  const [agents, messages, events] = await Promise.all([
    listGoalAgents(goal.id),
    recentGoalMessages(goal.id),
    recentEvents(goal.id),
  ]);
  const names = new Map(agents.map((a) => [String(a.agent_id), a.name]));
  const rows = agents.map((a) => ({
    ...a,
    leader_label: a.leader === USER_SENTINEL ? "owner" : `${names.get(a.leader) ?? "agent"} #${a.leader}`,
  }));
  return (
    <div className="space-y-6">
      <GoalHeader goal={goal} />
      <BudgetBanner goal={goal} />
      <GoalQuestionsPanel ownerId={owner.userId} goalId={goal.id} />
      <OpenRequestsPanel ownerId={owner.userId} goalId={goal.id} />
      <AgentsPanel agents={rows} />
      <TaskTreePanel goalId={goal.id} />
      <CostsPanel goal={goal} />
      <OwnerMessageForm agents={agents} />
      <TeamTreePanel goalId={goal.id} />
      <PlanDagPanel goalId={goal.id} />
      <PendingReviewsPanel goalId={goal.id} />
      <GoalLive goalId={goal.id} messages={messages} events={events} />
    </div>
  );
}
