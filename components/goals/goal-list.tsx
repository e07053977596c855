import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { goalDashboard } from "@/lib/domain/goals/dashboard";

type Goal = Awaited<ReturnType<typeof goalDashboard>>[number];

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function Progress({ goal }: { goal: Goal }) {
  const { total, done, failed } = goal.progress;
  const pct = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  return (
    <div className="w-40" data-testid="goal-progress">
      <div className="flex h-2 overflow-hidden rounded-full bg-slate-100">
        <div className="bg-emerald-500" style={{ width: `${pct(done)}%` }} />
        <div className="bg-rose-400" style={{ width: `${pct(failed)}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-500">
        {total === 0 ? "no tasks yet" : `${done}/${total} done${failed ? `, ${failed} failed` : ""}`}
      </p>
    </div>
  );
}

export function GoalList({ goals }: { goals: Goal[] }) {
  if (goals.length === 0) {
    return (
      <p className="px-5 py-10 text-center text-sm text-slate-500">
        No goals yet. Create one to start a team.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-100">
      {goals.map((g) => (
        <li key={g.id}>
          <Link href={`/goals/${g.id}`} className="flex items-center gap-4 px-5 py-4 hover:bg-slate-50">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">{g.title}</p>
              <p className="mt-0.5 font-mono text-xs text-slate-500">#goal-{g.slug}</p>
            </div>
            <Progress goal={g} />
            <p className="w-28 text-right text-xs text-slate-600" title="spent / budget">
              {dollars(g.cost_totals.spent_cents)}
              {g.cost_totals.budget_cents !== null ? ` / ${dollars(g.cost_totals.budget_cents)}` : ""}
            </p>
            <StatusBadge status={g.status} />
            <p className="w-40 text-right text-xs text-slate-500">
              <LocalTime iso={g.last_activity_at} />
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
