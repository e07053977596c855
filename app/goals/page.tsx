// Goals: the dashboard of the owner's goals (progress, spend, last activity) and the form to start one.

import { GoalList } from "@/components/goals/goal-list";
import { NewGoalForm } from "@/components/goals/new-goal-form";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { COORDINATOR_TEMPLATES } from "@/lib/domain/goals/create-goal";
import { goalDashboard } from "@/lib/domain/goals/dashboard";

export const dynamic = "force-dynamic";

export default async function GoalsPage() {
  const owner = await requireOwner();
  const goals = await goalDashboard(owner.userId);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Goals</h1>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Panel title={`Your goals (${goals.length})`} className="lg:col-span-2">
          <GoalList goals={goals} />
        </Panel>
        <Panel title="New goal">
          <NewGoalForm templates={Object.keys(COORDINATOR_TEMPLATES)} />
        </Panel>
      </div>
    </div>
  );
}
