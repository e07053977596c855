import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { CATALOGUE, type ErrorCode } from "@/lib/errors";

/** Who sees a tool in `tools/list`: agents (API key), owners (personal token), or both. */
export type Audience = "agent" | "owner" | "any";

export type ToolContext<C extends Caller = Caller> = {
  caller: C;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** Send a progress notification (only when the client asked for them). */
  progress(progress: number, message?: string): void;
};

type CallerFor<A extends Audience> = A extends "agent"
  ? Extract<Caller, { kind: "agent" }>
  : A extends "owner"
    ? Extract<Caller, { kind: "owner" }>
    : Caller;

/**
 * One tool, defined once: the contract's name, a description that says when to use it (its "Errors:" part
 * is generated from `errors` and the catalogue), strict zod schemas for input and output, explicit
 * annotations, and a handler that calls `lib/domain`.
 */
export type ToolDef<
  A extends Audience = Audience,
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> = {
  name: string;
  title: string;
  audience: A;
  /** When to use it and its pitfalls; no error list (that is generated from `errors`). */
  description: string;
  input: I;
  output: O;
  /** The catalogue codes its own rules return (besides invalid_input for bad input and internal_error). */
  errors: readonly ErrorCode[];
  /** MCP `readOnlyHint`: changes nothing. */
  readOnly: boolean;
  /** MCP `destructiveHint`: may end, remove or irreversibly close something (not merely add to it). */
  destructive: boolean;
  /** MCP `idempotentHint`: calling it again with the same arguments has no further effect. */
  idempotent: boolean;
  /** True when this call may block (it then holds one of the caller's open-wait slots, lib/mcp/limits.ts). */
  waits?: (input: z.output<I>) => boolean;
  /** The result's text content, when the contract's shape differs from structuredContent (default: its JSON). */
  text?: (output: z.input<O>) => string;
  handler: (ctx: ToolContext<CallerFor<A>>, input: z.output<I>) => Promise<z.input<O>>;
};

/** A tool of any input/output types, as the registry list holds them. */
export type AnyTool = Omit<ToolDef, "handler" | "text" | "waits"> & {
  // biome-ignore lint/suspicious/noExplicitAny: each tool narrows its own input
  waits?: (input: any) => boolean;
  // biome-ignore lint/suspicious/noExplicitAny: each tool narrows its own output
  text?: (output: any) => string;
  // biome-ignore lint/suspicious/noExplicitAny: each tool narrows its own context and input
  handler: (ctx: ToolContext<any>, input: any) => Promise<Record<string, unknown>>;
};

export function defineTool<A extends Audience, I extends z.ZodType, O extends z.ZodType>(
  def: ToolDef<A, I, O>,
): ToolDef<A, I, O> {
  return def;
}

/** The description tools/list shows: the tool's own text, then its errors from the catalogue (meaning + next step). */
export function describeTool(tool: Pick<ToolDef, "description" | "errors">): string {
  if (tool.errors.length === 0) return tool.description;
  const lines = tool.errors.map((code) => `- ${code}: ${CATALOGUE[code].meaning} ${CATALOGUE[code].hint}`);
  return `${tool.description}\nErrors:\n${lines.join("\n")}`;
}

export function visibleTo(audience: Audience, caller: Caller): boolean {
  return audience === "any" || audience === caller.kind;
}
