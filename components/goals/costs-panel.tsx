import Link from "next/link";
import { Panel } from "@/components/ui/panel";
import { ALERT_AT } from "@/lib/domain/usage/budget";
import { type CostGroup, GROUP_BY, type GroupBy, goalCosts } from "@/lib/domain/usage/cost-report";
import { BudgetControls } from "./budget-controls";
import { billingRows, CostTreeTable } from "./cost-tree";
import { CostsChart } from "./costs-chart";

type Goal = {
  id: number;
  status: string;
  pausedReason: string | null;
  budgetAlertedAt: Date | null;
  budgetCents: number | null;
  budgetTokens: number | null;
  spentCents: number;
  spentTokens: number;
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const TITLES: Record<GroupBy, string> = {
  agent: "By agent",
  task: "By task (with its subtasks)",
  billing_code: "By billing code",
  model: "By model",
};
const TOP = 10;

function share(spent: number, budget: number | null): number | null {
  if (budget === null) return null;
  return budget === 0 ? (spent > 0 ? 1 : 0) : spent / budget;
}

/** The budget banner (80 % alert / paused), live through the page's refresh on budget.* and goal.* events. */
export function BudgetBanner({ goal }: { goal: Goal }) {
  if (goal.status === "paused") {
    return (
      <div
        className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
        role="alert"
        data-testid="budget-banner"
      >
        <p className="font-medium">
          {goal.pausedReason === "manual" ? "You paused this goal." : "Budget exhausted: the goal is paused."}
        </p>
        <p className="mt-1">
          Agents can read, talk and report usage; everything that starts or continues work is refused. Keep it
          paused, or raise the budget and resume.
        </p>
        <div className="mt-3">
          <BudgetControls
            goalId={goal.id}
            status={goal.status}
            budgetCents={goal.budgetCents}
            budgetTokens={goal.budgetTokens}
          />
        </div>
      </div>
    );
  }
  if (goal.budgetAlertedAt) {
    return (
      <div
        className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
        role="status"
        data-testid="budget-banner"
      >
        <p className="font-medium">
          Budget alert: this goal has spent over {Math.round(ALERT_AT * 100)} % of its budget.
        </p>
        <p className="mt-1">At 100 % it is paused and work is refused until you resume it.</p>
      </div>
    );
  }
  return null;
}

function Utilisation({
  label,
  spent,
  budget,
  fmt,
}: {
  label: string;
  spent: number;
  budget: number | null;
  fmt: (n: number) => string;
}) {
  const s = share(spent, budget);
  const pct = s === null ? 0 : Math.min(100, s * 100);
  const colour =
    s === null ? "bg-slate-400" : s >= 1 ? "bg-rose-600" : s >= ALERT_AT ? "bg-amber-500" : "bg-emerald-500";
  return (
    <div>
      <div className="flex justify-between text-xs text-slate-600">
        <span>{label}</span>
        <span className="tabular-nums">
          {fmt(spent)}
          {budget === null ? " (no budget)" : ` of ${fmt(budget)} · ${Math.floor((s ?? 0) * 100)} %`}
        </span>
      </div>
      <div
        className="relative mt-1 h-2.5 rounded-full bg-slate-100"
        data-testid={`utilisation-${label.toLowerCase()}`}
      >
        <div className={`h-2.5 rounded-full ${colour}`} style={{ width: `${pct}%` }} />
        {budget !== null && (
          <div
            className="absolute top-[-3px] h-4 w-px bg-slate-700"
            style={{ left: `${ALERT_AT * 100}%` }}
            title="80 % alert line"
          />
        )}
      </div>
    </div>
  );
}

function href(goalId: number, by: GroupBy, key: string): string | null {
  if (by === "agent") return `/goals/${goalId}#agent-${key}`;
  if (by === "task" && key !== "0") return `/goals/${goalId}#task-${key}`;
  return null;
}

function Breakdown({
  goalId,
  by,
  groups,
  other,
}: {
  goalId: number;
  by: GroupBy;
  groups: CostGroup[];
  other: { cents: number; tokens: number; count: number } | null;
}) {
  return (
    <div>
      <h3 className="text-xs font-semibold text-slate-700">{TITLES[by]}</h3>
      {groups.length === 0 ? (
        <p className="mt-1 text-xs text-slate-500">Nothing yet.</p>
      ) : (
        <table className="mt-1 w-full text-xs" data-testid={`costs-by-${by}`}>
          <tbody>
            {groups.map((g) => {
              const link = href(goalId, by, g.key);
              return (
                <tr key={g.key} className="border-t border-slate-100">
                  <td className="py-1 pr-2">
                    {link ? (
                      <Link className="text-sky-700 hover:underline" href={link}>
                        {g.label}
                      </Link>
                    ) : (
                      g.label
                    )}
                  </td>
                  <td className="py-1 text-right tabular-nums">{dollars(g.cents)}</td>
                  <td className="py-1 pl-2 text-right text-slate-500 tabular-nums">
                    {g.tokens.toLocaleString("en-US")} tok
                  </td>
                </tr>
              );
            })}
            {other && (
              <tr className="border-t border-slate-100 text-slate-500">
                <td className="py-1 pr-2">other ({other.count})</td>
                <td className="py-1 text-right tabular-nums">{dollars(other.cents)}</td>
                <td className="py-1 pl-2 text-right tabular-nums">
                  {other.tokens.toLocaleString("en-US")} tok
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * The goal page's "Costs" section: total vs budget, spend per day (30 days), and the four breakdowns (top 10
 * + other; tasks and billing codes as their hierarchies, the 10 largest nodes with their parents).
 */
export async function CostsPanel({ goal }: { goal: Goal }) {
  const views = [];
  for (const by of GROUP_BY)
    views.push(await goalCosts(goal.id, { group_by: by, bucket: "day", limit: TOP }));
  const series = views[0]?.series ?? [];
  return (
    <Panel
      title="Costs"
      actions={
        goal.status !== "paused" ? (
          <BudgetControls
            goalId={goal.id}
            status={goal.status}
            budgetCents={goal.budgetCents}
            budgetTokens={goal.budgetTokens}
          />
        ) : undefined
      }
    >
      <div className="space-y-3 px-5 py-4" data-testid="costs-panel">
        <Utilisation label="Spend" spent={goal.spentCents} budget={goal.budgetCents} fmt={dollars} />
        <Utilisation
          label="Tokens"
          spent={goal.spentTokens}
          budget={goal.budgetTokens}
          fmt={(n) => n.toLocaleString("en-US")}
        />
      </div>
      {views[0] && views[0].total.cents > 0 && (
        <p className="px-5 text-xs text-slate-500" data-testid="costs-split">
          Last 30 days: {dollars(views[0].total.cents)} at list price · API key (billed){" "}
          {dollars(views[0].total.api_cents)} · subscription (what the work was worth){" "}
          {dollars(views[0].total.subscription_cents)}
        </p>
      )}
      <CostsChart points={series} />
      <div className="grid gap-5 border-t border-slate-100 px-5 py-4 sm:grid-cols-2">
        {views.map((v) =>
          v.billing_tree || v.task_tree ? (
            <div key={v.group_by}>
              <h3 className="text-xs font-semibold text-slate-700">{TITLES[v.group_by]}</h3>
              <CostTreeTable
                nodes={v.task_tree ?? billingRows(v.billing_tree ?? [])}
                max={TOP}
                testId={`costs-by-${v.group_by}`}
                href={(key) => href(goal.id, v.group_by, key)}
              />
            </div>
          ) : (
            <Breakdown key={v.group_by} goalId={goal.id} by={v.group_by} groups={v.groups} other={v.other} />
          ),
        )}
      </div>
    </Panel>
  );
}
