import { write } from "@/lib/db";
import { appendEvent } from "@/lib/domain/events/append-event";
import { DomainError } from "@/lib/errors";

/**
 * An agent's tool scope (`Agent.toolScopeJson`): the MCP tools it may list and call. `null` (or an empty
 * list) is the default, every agent tool. A scope comes from a proposal (`propose_agent.tool_scope`) or
 * from the skill an agent was spawned with (`Skill.tools`); names that are not Switchboard tools in a
 * skill's list (a runtime's own tools) are simply never matched here.
 */
export type ToolScope = readonly string[] | null;

export function parseScope(json: string | null | undefined): ToolScope {
  if (!json) return null;
  const list = JSON.parse(json) as unknown;
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.filter((x): x is string => typeof x === "string");
}

/** Whether `tool` is in `scope` (everything is, for the default scope). */
export const inScope = (scope: ToolScope, tool: string) => scope === null || scope.includes(tool);

/** The tools of `tools` an agent of this scope sees in tools/list. */
export const visibleInScope = <T extends { name: string }>(scope: ToolScope, tools: readonly T[]) =>
  scope === null ? [...tools] : tools.filter((t) => scope.includes(t.name));

/** The per-call rule (lib/mcp/server.ts runs it before every agent tool call): outside the scope is refused. */
export function assertInScope(scope: ToolScope, tool: string): void {
  if (inScope(scope, tool)) return;
  throw new DomainError("tool_not_in_scope", `${tool} is not in your tool_scope.`, {
    details: { tool, tool_scope: scope },
  });
}

/** The tools of `proposed` that `holder` does not have (empty: a subset, the delegation cap holds). */
export const scopeExcess = (holder: ToolScope, proposed: readonly string[]) =>
  holder === null ? [] : proposed.filter((t) => !holder.includes(t));

/** Autonomy tiers, lowest first (`Agent.autonomyTier`). */
export const AUTONOMY_TIERS = ["supervised", "assisted", "autonomous"] as const;
export type AutonomyTier = (typeof AUTONOMY_TIERS)[number];

export const tierRank = (tier: string) => {
  const i = AUTONOMY_TIERS.indexOf(tier as AutonomyTier);
  return Math.max(i, 0); // an unknown tier counts as the lowest (never widens a grant)
};

/**
 * The per-call hook (lib/mcp/server.ts, before every agent tool call, before its input is parsed): a tool
 * outside the agent's scope is refused with `tool_not_in_scope` and a `tool_not_in_scope` event records it.
 */
export async function enforceToolScope(
  caller: { agentId: number; goalId: number },
  scope: ToolScope,
  tool: string,
): Promise<void> {
  if (inScope(scope, tool)) return;
  await write((u) =>
    appendEvent(u, {
      goalId: caller.goalId,
      name: "tool_not_in_scope",
      agentId: caller.agentId,
      data: { tool, tool_scope: scope },
    }),
  );
  assertInScope(scope, tool);
}
