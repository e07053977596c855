import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { listGoals } from "@/lib/domain/goals/queries";

type Goal = Awaited<ReturnType<typeof listGoals>>[number];

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
            <StatusBadge status={g.status} />
            <p className="w-44 text-right text-xs text-slate-500">
              <LocalTime iso={g.last_activity_at} />
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
