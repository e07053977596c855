"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Spend per day (list price, API-key and subscription runs stacked), recharts. */
export function CostsChart({
  points,
}: {
  points: { t: string; api_cents: number; subscription_cents: number }[];
}) {
  const data = points.map((p) => ({
    day: p.t.slice(5, 10),
    api: p.api_cents / 100,
    subscription: p.subscription_cents / 100,
  }));
  if (data.length === 0)
    return <p className="px-5 py-4 text-sm text-slate-500">No spend recorded in the last 30 days.</p>;
  return (
    <div className="h-56 w-full px-2 py-3" data-testid="costs-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={11} />
          <YAxis fontSize={11} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip formatter={(v) => `$${Number(v).toFixed(2)}`} />
          <Bar dataKey="api" name="API key" stackId="s" fill="#0f172a" />
          <Bar dataKey="subscription" name="Subscription (list price)" stackId="s" fill="#94a3b8" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
