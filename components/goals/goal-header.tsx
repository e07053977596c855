import { StatusBadge } from "@/components/ui/badge";

type Goal = {
  title: string;
  slug: string;
  status: string;
  description: string;
  maxSpawnDepth: number;
  budgetCents: number | null;
  budgetTokens: number | null;
  spentCents: number;
  spentTokens: number;
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

export function GoalHeader({ goal }: { goal: Goal }) {
  return (
    <header className="rounded-lg bg-white p-6 shadow-xs ring-1 ring-slate-200" data-testid="goal-header">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{goal.title}</h1>
        <StatusBadge status={goal.status} />
        <span className="font-mono text-sm text-slate-500">#goal-{goal.slug}</span>
      </div>
      <p className="mt-3 max-w-3xl text-sm whitespace-pre-wrap text-slate-600">{goal.description}</p>
      <dl className="mt-5 grid grid-cols-2 gap-4 border-t border-slate-100 pt-4 sm:grid-cols-4">
        <Stat
          label="Spend"
          value={`${dollars(goal.spentCents)}${goal.budgetCents === null ? "" : ` of ${dollars(goal.budgetCents)}`}`}
        />
        <Stat
          label="Tokens"
          value={`${goal.spentTokens.toLocaleString("en-US")}${goal.budgetTokens === null ? "" : ` of ${goal.budgetTokens.toLocaleString("en-US")}`}`}
        />
        <Stat label="Max spawn depth" value={String(goal.maxSpawnDepth)} />
      </dl>
    </header>
  );
}
