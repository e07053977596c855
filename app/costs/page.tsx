// Costs across all the owner's goals (issue 12): a date range, a breakdown (goal, agent, billing code,
// model) paged by spend, totals (API-key billed vs subscription at list price), and CSV export.
import Link from "next/link";
import { billingRows, CostTreeTable } from "@/components/goals/cost-tree";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { OWNER_GROUP_BY, ownerCosts, ownerCostsQuery } from "@/lib/domain/usage/owner-costs";

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const TITLES = { goal: "Goal", agent: "Agent", billing_code: "Billing code", model: "Model" } as const;

export default async function CostsPage({ searchParams }: { searchParams: Promise<Record<string, string>> }) {
  const owner = await requireOwner();
  const raw = await searchParams;
  const parsed = ownerCostsQuery.safeParse({
    group_by: raw.group_by || undefined,
    from: raw.from || undefined,
    to: raw.to || undefined,
    page: raw.page || undefined,
  });
  const q = parsed.success ? parsed.data : ownerCostsQuery.parse({});
  const r = await ownerCosts(owner.userId, q);
  // By billing code: the hierarchy (every code under its prefixes) instead of the flat, paged list.
  const tree = r.billing_tree?.length ? r.billing_tree : null;
  const qs = (extra: Record<string, string | number>) =>
    new URLSearchParams({
      group_by: r.group_by,
      from: r.from,
      to: r.to,
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
    }).toString();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Costs</h1>
        <p className="mt-1 text-sm text-slate-500">
          Spend of all your goals at list price; API-key runs are what was billed, subscription runs what the
          work was worth.
        </p>
        {!parsed.success && (
          <p className="mt-2 text-sm text-rose-700">The filter was not valid; showing the last 30 days.</p>
        )}
      </div>
      <Panel title="Filter">
        <form className="flex flex-wrap items-end gap-3 px-5 py-4 text-sm" method="get">
          <label className="text-xs text-slate-600">
            From
            <input
              type="date"
              name="from"
              defaultValue={r.from}
              className="mt-0.5 block rounded-md border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="text-xs text-slate-600">
            To
            <input
              type="date"
              name="to"
              defaultValue={r.to}
              className="mt-0.5 block rounded-md border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="text-xs text-slate-600">
            By
            <select
              name="group_by"
              defaultValue={r.group_by}
              className="mt-0.5 block rounded-md border border-slate-300 px-2 py-1"
            >
              {OWNER_GROUP_BY.map((g) => (
                <option key={g} value={g}>
                  {TITLES[g]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white"
          >
            Show
          </button>
          <a
            className="text-sm text-sky-700 hover:underline"
            href={`/api/costs?${qs({ format: "csv" })}`}
            data-testid="costs-csv"
          >
            Export CSV
          </a>
        </form>
      </Panel>
      <Panel title={`${dollars(r.total.cents)} from ${r.from} to ${r.to}`}>
        <p className="px-5 pt-3 text-xs text-slate-500" data-testid="costs-total">
          API key (billed): {dollars(r.total.api_cents)} · subscription (list price):{" "}
          {dollars(r.total.subscription_cents)} · {r.total.tokens.toLocaleString("en-US")} tokens
        </p>
        {tree && (
          <div className="mt-2" data-testid="owner-billing-tree">
            <p className="px-5 text-xs text-slate-500">
              Each code with the codes under it (<code>eng/backend/api</code> counts under{" "}
              <code>eng/backend</code> and <code>eng</code>); "own" is what was reported under the code
              itself.
            </p>
            <CostTreeTable nodes={billingRows(tree)} max={200} testId="owner-billing-codes" dense={false} />
          </div>
        )}
        {!tree && (
          <table className="mt-2 w-full text-sm" data-testid="owner-costs">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="px-5 py-2">{TITLES[r.group_by]}</th>
                <th className="px-5 py-2 text-right">Spend</th>
                <th className="px-5 py-2 text-right">API key</th>
                <th className="px-5 py-2 text-right">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {r.groups.map((g) => (
                <tr key={g.key} className="border-t border-slate-100">
                  <td className="px-5 py-1.5">
                    {r.group_by === "goal" ? (
                      <Link className="text-sky-700 hover:underline" href={`/goals/${g.key}`}>
                        {g.label}
                      </Link>
                    ) : (
                      g.label
                    )}
                  </td>
                  <td className="px-5 py-1.5 text-right tabular-nums">{dollars(g.cents)}</td>
                  <td className="px-5 py-1.5 text-right tabular-nums">{dollars(g.api_cents)}</td>
                  <td className="px-5 py-1.5 text-right tabular-nums">{g.tokens.toLocaleString("en-US")}</td>
                </tr>
              ))}
              {r.other && (
                <tr className="border-t border-slate-100 text-slate-500">
                  <td className="px-5 py-1.5">other ({r.other.count}, on later pages)</td>
                  <td className="px-5 py-1.5 text-right tabular-nums">{dollars(r.other.cents)}</td>
                  <td className="px-5 py-1.5 text-right tabular-nums">{dollars(r.other.api_cents)}</td>
                  <td className="px-5 py-1.5 text-right tabular-nums">
                    {r.other.tokens.toLocaleString("en-US")}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
        {r.groups.length === 0 && <p className="px-5 py-4 text-sm text-slate-500">No spend in this range.</p>}
        {!tree && r.pages > 1 && (
          <nav className="flex gap-3 px-5 py-3 text-sm">
            {r.page > 1 && <Link href={`/costs?${qs({ page: r.page - 1 })}`}>← Previous</Link>}
            <span className="text-slate-500">
              page {r.page} of {r.pages}
            </span>
            {r.page < r.pages && <Link href={`/costs?${qs({ page: r.page + 1 })}`}>Next →</Link>}
          </nav>
        )}
      </Panel>
    </div>
  );
}
