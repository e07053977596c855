import type { Acc, Amount } from "./cost-report";

/** One node of a cost hierarchy, with its whole subtree's spend (itself and every node under it). */
export type TreeNode = Amount & {
  key: string;
  /** What to show for it in an indented list (a billing code's last segment, a task's title). */
  name: string;
  depth: number;
  parent: string | null;
  /** Of `cents`, what was reported under this exact key (not a node below it). */
  own_cents: number;
};

/** One billing code of the hierarchy (`code` is the node's key: a reported code or a prefix of one). */
export type BillingNode = Omit<TreeNode, "key"> & { code: string };

const SEPARATORS = new Set([".", "/"]);

/**
 * The codes a code counts under, shortest first, itself last: its prefixes at each `/` or `.`
 * (`eng/backend/api` → `eng`, `eng/backend`, `eng/backend/api`; `billing.csv` → `billing`, `billing.csv`).
 * A separator at the start or right after another one starts no prefix.
 */
export function codePath(code: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < code.length; i++) {
    if (SEPARATORS.has(code[i] as string) && !SEPARATORS.has(code[i - 1] as string))
      out.push(code.slice(0, i));
  }
  out.push(code);
  return out;
}

function plus(a: Acc, b: Acc): void {
  for (const k of Object.keys(a) as (keyof Acc)[]) a[k] += b[k];
}

/**
 * Roll spend up a hierarchy: given the spend per reported key (exact, in micro-cents) and each key's path
 * from its root (itself last), every node with its subtree's spend, depth first, siblings by spend
 * (largest first). `finish` turns an accumulator into an Amount (cents floored once, from the subtree's
 * micro-cents).
 */
export function rollUp(
  perKey: Map<string, Acc>,
  pathOf: (key: string) => string[],
  nameOf: (key: string, parent: string | null) => string,
  finish: (a: Acc) => Amount,
): TreeNode[] {
  const total = new Map<string, Acc>();
  const parentOf = new Map<string, string | null>();
  for (const [key, acc] of perKey) {
    const path = pathOf(key);
    for (const [i, node] of path.entries()) {
      const t = total.get(node);
      if (t) plus(t, acc);
      else total.set(node, { ...acc });
      if (!parentOf.has(node)) parentOf.set(node, i === 0 ? null : (path[i - 1] as string));
    }
  }
  const children = new Map<string | null, string[]>();
  for (const [node, parent] of parentOf) {
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  const micros = (k: string) => total.get(k)?.micros ?? 0;
  const out: TreeNode[] = [];
  const visit = (parent: string | null, depth: number) => {
    const list = (children.get(parent) ?? []).sort((x, y) => micros(y) - micros(x) || x.localeCompare(y));
    for (const key of list) {
      const own = perKey.get(key);
      out.push({
        key,
        name: nameOf(key, parent),
        depth,
        parent,
        ...finish(total.get(key) as Acc),
        own_cents: own ? finish(own).cents : 0,
      });
      visit(key, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/** Billing codes are hierarchical: every reported code also counts under each of its prefixes (`codePath`). */
export function billingTree(perCode: Map<string, Acc>, finish: (a: Acc) => Amount): BillingNode[] {
  return rollUp(
    perCode,
    (code) => (code === "" ? [""] : codePath(code)),
    (code, parent) => (code === "" ? "(none)" : parent === null ? code : code.slice(parent.length + 1)),
    finish,
  ).map(({ key, ...n }) => ({ code: key, ...n }));
}
