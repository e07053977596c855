// Goals: the owner's goals, most recently active first, and the form to start a new one.

import { GoalList } from "@/components/goals/goal-list";
import { NewGoalForm } from "@/components/goals/new-goal-form";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listGoals } from "@/lib/domain/goals/queries";

export default async function GoalsPage() {
  const owner = await requireOwner();
  const goals = await listGoals(owner.userId);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Goals</h1>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Panel title={`Your goals (${goals.length})`} className="lg:col-span-2">
          <GoalList goals={goals} />
        </Panel>
        <Panel title="New goal">
          <NewGoalForm />
        </Panel>
      </div>
    </div>
  );
}
