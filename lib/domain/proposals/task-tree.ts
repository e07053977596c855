import { createHash } from "node:crypto";
import { z } from "zod";
import { MAX_DB_INT, MAX_TOKEN_BUDGET } from "@/lib/ids";
import { showInvisible } from "./visible-text";

/** Largest tree one proposal may carry, and its deepest nesting. */
export const MAX_TREE_NODES = 1000;
export const MAX_TREE_DEPTH = 20;
/** The ancestry snapshot stored on each task is capped at 16 KB (the goals contract, docs/contracts.md). */
export const ANCESTRY_CAP_BYTES = 16 * 1024;

const cents = z.number().int().min(0).max(MAX_DB_INT);

/** `verifier_config`, exactly the contract's three kinds. */
export const verifierConfig = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("auto") }),
  z.strictObject({
    kind: z.literal("peer"),
    agent_id: z
      .number()
      .int()
      .positive()
      .max(MAX_DB_INT)
      .describe("The agent (of this goal) that must call verify_task."),
  }),
  z.strictObject({
    kind: z.literal("command"),
    cmd: z.string().min(1).max(4000).describe("Shell command run by the runner; exit 0 approves."),
    cwd: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe("Working directory (relative to the runner's workspace)."),
    timeout_sec: z.number().int().min(1).max(86_400).optional().describe("Default 600."),
  }),
]);
export type VerifierConfig = z.infer<typeof verifierConfig>;

export type TaskNode = {
  title: string;
  description: string;
  acceptance_criteria?: string | undefined;
  billing_code?: string | undefined;
  budget_tokens?: number | undefined;
  budget_dollars_cents?: number | undefined;
  verifier_config?: VerifierConfig | undefined;
  children?: TaskNode[] | undefined;
};

/** `task_node`, recursive, as the contract types it (plus bounds on every string and array). */
export const taskNode: z.ZodType<TaskNode> = z.lazy(() =>
  z.strictObject({
    title: z.string().min(3).max(200),
    description: z.string().min(10).max(16_000),
    acceptance_criteria: z.string().max(16_000).optional(),
    billing_code: z.string().min(1).max(100).optional(),
    budget_tokens: z.number().int().min(0).max(MAX_TOKEN_BUDGET).optional(),
    budget_dollars_cents: cents.optional(),
    verifier_config: verifierConfig.optional(),
    children: z.array(taskNode).max(MAX_TREE_NODES).optional(),
  }),
);

/** Every node of a tree, depth first, with its depth and its parent's index in the same list. */
export function flatten(tree: TaskNode): { node: TaskNode; depth: number; parent: number | null }[] {
  const out: { node: TaskNode; depth: number; parent: number | null }[] = [];
  const walk = (node: TaskNode, depth: number, parent: number | null) => {
    const me = out.length;
    out.push({ node, depth, parent });
    for (const c of node.children ?? []) walk(c, depth + 1, me);
  };
  walk(tree, 0, null);
  return out;
}

/** JSON with object keys sorted, so equal content hashes equally whatever the key order sent. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

export const contentHash = (payload: unknown) =>
  createHash("sha256").update(canonicalJson(payload)).digest("hex");

export function verifierLabel(v: VerifierConfig | undefined): string {
  if (!v || v.kind === "auto") return "auto";
  if (v.kind === "peer") return `peer #${v.agent_id}`;
  return `command \`${showInvisible(v.cmd)}\`${v.cwd ? ` in ${showInvisible(v.cwd)}` : ""} (timeout ${v.timeout_sec ?? 600}s)`;
}

/** The tree as readable text (the `#approvals` post). */
export function renderTree(tree: TaskNode): string {
  const lines: string[] = [];
  for (const { node, depth } of flatten(tree)) {
    const pad = "  ".repeat(depth);
    const facts = [
      node.billing_code ? `billing ${node.billing_code}` : null,
      node.budget_dollars_cents !== undefined ? `$${(node.budget_dollars_cents / 100).toFixed(2)}` : null,
      node.budget_tokens !== undefined ? `${node.budget_tokens} tokens` : null,
      `verifier ${verifierLabel(node.verifier_config)}`,
    ].filter(Boolean);
    lines.push(`${pad}- ${node.title} [${facts.join(", ")}]`);
    lines.push(`${pad}  ${node.description.replace(/\s+/g, " ").slice(0, 300)}`);
    if (node.acceptance_criteria)
      lines.push(`${pad}  Acceptance: ${node.acceptance_criteria.replace(/\s+/g, " ").slice(0, 300)}`);
  }
  return lines.join("\n");
}

type AncestorEntry = { id: number; title: string; description: string; acceptance_criteria: string | null };

/**
 * The ancestry snapshot of a task: its ancestors, root first, as JSON, at most 16 KB. Long texts are
 * shortened first; then the entries nearest the root are dropped (the nearest ancestors matter most).
 */
export function ancestrySnapshot(ancestors: AncestorEntry[]): string {
  let list = ancestors.map((a) => ({
    ...a,
    description: a.description.slice(0, 2000),
    acceptance_criteria: a.acceptance_criteria?.slice(0, 1000) ?? null,
  }));
  let json = JSON.stringify(list);
  while (Buffer.byteLength(json) > ANCESTRY_CAP_BYTES && list.length > 0) {
    list = list.slice(1);
    json = JSON.stringify(list);
  }
  return json;
}

/** The shell commands a tree will have a runner execute (its command verifiers), in tree order. */
export function treeCommands(
  tree: TaskNode,
): { title: string; cmd: string; cwd: string | null; timeout_sec: number }[] {
  return flatten(tree).flatMap(({ node }) => {
    const v = node.verifier_config;
    return v?.kind === "command"
      ? [{ title: node.title, cmd: v.cmd, cwd: v.cwd ?? null, timeout_sec: v.timeout_sec ?? 600 }]
      : [];
  });
}
