import type { BillingNode } from "@/lib/domain/usage/billing-tree";

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Spend by billing code as its hierarchy: each code indented under its prefix (`eng/backend/api` under
 * `eng/backend` under `eng`) with its whole subtree's spend; "own" is what was reported under the exact
 * code. The `max` largest codes, shown depth first: a code never spends less than one under it, so every
 * shown code's parents are shown too; the rest are counted below.
 */
export function BillingTreeTable({
  nodes,
  max,
  testId,
  dense = true,
}: {
  nodes: BillingNode[];
  max: number;
  testId: string;
  dense?: boolean;
}) {
  if (nodes.length === 0) return <p className="mt-1 text-xs text-slate-500">Nothing yet.</p>;
  const keep = new Set(
    [...nodes]
      .sort((x, y) => y.cents - x.cents || y.tokens - x.tokens || x.depth - y.depth)
      .slice(0, max)
      .map((n) => n.code),
  );
  const shown = nodes.filter((n) => keep.has(n.code) && (n.parent === null || keep.has(n.parent)));
  const cell = dense ? "py-1" : "px-5 py-1.5";
  return (
    <table className={`mt-1 w-full ${dense ? "text-xs" : "text-sm"}`} data-testid={testId}>
      {!dense && (
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="px-5 py-2">Billing code (with the codes under it)</th>
            <th className="px-5 py-2 text-right">Spend</th>
            <th className="px-5 py-2 text-right">Own</th>
            <th className="px-5 py-2 text-right">API key</th>
            <th className="px-5 py-2 text-right">Tokens</th>
          </tr>
        </thead>
      )}
      <tbody>
        {shown.map((n) => (
          <tr
            key={n.code}
            className="border-t border-slate-100"
            data-code={n.code}
            data-depth={n.depth}
            data-testid="billing-node"
          >
            <td className={`${cell} pr-2`}>
              <span style={{ paddingLeft: `${n.depth * 1}rem` }} title={n.code || "(none)"}>
                {n.depth > 0 && <span className="text-slate-400">└ </span>}
                {n.code === "" ? "(none)" : n.name}
              </span>
            </td>
            <td className={`${cell} text-right tabular-nums`}>{dollars(n.cents)}</td>
            <td className={`${cell} pl-2 text-right text-slate-500 tabular-nums`}>
              {dense ? (n.own_cents === n.cents ? "" : `own ${dollars(n.own_cents)}`) : dollars(n.own_cents)}
            </td>
            {!dense && <td className={`${cell} text-right tabular-nums`}>{dollars(n.api_cents)}</td>}
            <td className={`${cell} pl-2 text-right text-slate-500 tabular-nums`}>
              {n.tokens.toLocaleString("en-US")}
              {dense ? " tok" : ""}
            </td>
          </tr>
        ))}
      </tbody>
      {nodes.length > shown.length && (
        <tfoot>
          <tr className="border-t border-slate-100 text-slate-500">
            <td className={cell} colSpan={dense ? 3 : 5}>
              {nodes.length - shown.length} more codes (smaller)
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
