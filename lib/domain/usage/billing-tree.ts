import type { Acc, Amount } from "./cost-report";

/** One billing code of the hierarchy, with its whole subtree's spend (itself and every code under it). */
export type BillingNode = Amount & {
  /** The code: a prefix of a reported code, or one reported as is ("" is spend without a code). */
  code: string;
  /** Its last segment (`api` for `eng/backend/api`), for an indented list. */
  name: string;
  depth: number;
  parent: string | null;
  /** Of `cents`, what was reported under this exact code (not a code below it). */
  own_cents: number;
};

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

function copy(a: Acc): Acc {
  return { ...a };
}

/**
 * Billing codes are hierarchical: every reported code also counts under each of its prefixes. Given the
 * spend per reported code (exact, in micro-cents), every node of the hierarchy with its subtree's spend,
 * depth first, siblings by spend (largest first). `finish` turns an accumulator into an Amount (cents
 * floored once, from the subtree's micro-cents).
 */
export function billingTree(perCode: Map<string, Acc>, finish: (a: Acc) => Amount): BillingNode[] {
  const total = new Map<string, Acc>();
  const parentOf = new Map<string, string | null>();
  for (const [code, acc] of perCode) {
    const path = code === "" ? [""] : codePath(code);
    for (const [i, node] of path.entries()) {
      const t = total.get(node);
      if (t) plus(t, acc);
      else total.set(node, copy(acc));
      if (!parentOf.has(node)) parentOf.set(node, i === 0 ? null : (path[i - 1] as string));
    }
  }
  const children = new Map<string | null, string[]>();
  for (const [node, parent] of parentOf) {
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  const micros = (c: string) => total.get(c)?.micros ?? 0;
  const out: BillingNode[] = [];
  const visit = (parent: string | null, depth: number) => {
    const list = (children.get(parent) ?? []).sort((x, y) => micros(y) - micros(x) || x.localeCompare(y));
    for (const code of list) {
      const own = perCode.get(code);
      out.push({
        code,
        name: parent === null ? code : code.slice(parent.length + 1),
        depth,
        parent,
        ...finish(total.get(code) as Acc),
        own_cents: own ? finish(own).cents : 0,
      });
      visit(code, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}
