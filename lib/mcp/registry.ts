import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";

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
 * One tool, defined once: the contract's name, a description that says when to use it and what its
 * errors mean, strict zod schemas for input and output, and a handler that calls `lib/domain`.
 */
export type ToolDef<
  A extends Audience = Audience,
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> = {
  name: string;
  title: string;
  audience: A;
  description: string;
  input: I;
  output: O;
  readOnly: boolean;
  /** The result's text content, when the contract's shape differs from structuredContent (default: its JSON). */
  text?: (output: z.input<O>) => string;
  handler: (ctx: ToolContext<CallerFor<A>>, input: z.output<I>) => Promise<z.input<O>>;
};

/** A tool of any input/output types, as the registry list holds them. */
export type AnyTool = Omit<ToolDef, "handler" | "text"> & {
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

export function visibleTo(audience: Audience, caller: Caller): boolean {
  return audience === "any" || audience === caller.kind;
}
