import Link from "next/link";
import type { BillingNode, TreeNode } from "@/lib/domain/usage/billing-tree";

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A billing node as a tree row (its code is its key). */
export const billingRows = (nodes: BillingNode[]): TreeNode[] =>
  nodes.map(({ code, ...n }) => ({ key: code, ...n }));

/**
 * Spend as a hierarchy (billing codes under their prefixes, `eng/backend/api` under `eng/backend` under
 * `eng`; tasks under their parents), each node with its whole subtree's spend; "own" is what was reported
 * under the node itself. The `max` largest codes, shown depth first: a code never spends less than one under it, so every
 * shown code's parents are shown too; the rest are counted below.
 */
export function CostTreeTable({
  nodes,
  max,
  testId,
  dense = true,
  heading = "Billing code (with the codes under it)",
  href,
}: {
  nodes: TreeNode[];
  max: number;
  testId: string;
  dense?: boolean;
  heading?: string;
  href?: (key: string) => string | null;
}) {
  if (nodes.length === 0) return <p className="mt-1 text-xs text-slate-500">Nothing yet.</p>;
  const keep = new Set(
    [...nodes]
      .sort((x, y) => y.cents - x.cents || y.tokens - x.tokens || x.depth - y.depth)
      .slice(0, max)
      .map((n) => n.key),
  );
  const shown = nodes.filter((n) => keep.has(n.key) && (n.parent === null || keep.has(n.parent)));
  const cell = dense ? "py-1" : "px-5 py-1.5";
  return (
    <table className={`mt-1 w-full ${dense ? "text-xs" : "text-sm"}`} data-testid={testId}>
      {!dense && (
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="px-5 py-2">{heading}</th>
            <th className="px-5 py-2 text-right">Spend</th>
            <th className="px-5 py-2 text-right">Own</th>
            <th className="px-5 py-2 text-right">API key</th>
            <th className="px-5 py-2 text-right">Tokens</th>
          </tr>
        </thead>
      )}
      <tbody>
        {shown.map((n) => {
          const link = href?.(n.key);
          return (
            <tr
              key={n.key}
              className="border-t border-slate-100"
              data-key={n.key}
              data-depth={n.depth}
              data-testid="cost-node"
            >
              <td className={`${cell} pr-2`}>
                <span style={{ paddingLeft: `${n.depth * 1}rem` }} title={n.key || n.name}>
                  {n.depth > 0 && <span className="text-slate-400">└ </span>}
                  {link ? (
                    <Link className="text-sky-700 hover:underline" href={link}>
                      {n.name}
                    </Link>
                  ) : (
                    n.name
                  )}
                </span>
              </td>
              <td className={`${cell} text-right tabular-nums`}>{dollars(n.cents)}</td>
              <td className={`${cell} pl-2 text-right text-slate-500 tabular-nums`}>
                {dense
                  ? n.own_cents === n.cents
                    ? ""
                    : `own ${dollars(n.own_cents)}`
                  : dollars(n.own_cents)}
              </td>
              {!dense && <td className={`${cell} text-right tabular-nums`}>{dollars(n.api_cents)}</td>}
              <td className={`${cell} pl-2 text-right text-slate-500 tabular-nums`}>
                {n.tokens.toLocaleString("en-US")}
                {dense ? " tok" : ""}
              </td>
            </tr>
          );
        })}
      </tbody>
      {nodes.length > shown.length && (
        <tfoot>
          <tr className="border-t border-slate-100 text-slate-500">
            <td className={cell} colSpan={dense ? 3 : 5}>
              {nodes.length - shown.length} more (smaller)
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
