import { z } from "zod";
import type { ReadUnit } from "@/lib/db";
import { notTerminatedWhere } from "@/lib/domain/agents/terminated";
import { parseScope, scopeExcess, tierRank } from "@/lib/domain/agents/tool-scope";
import { DomainError } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";
import { contentHash } from "./task-tree";

/** One MCP server the proposed agent will talk to: its URL is where the agent sends data. */
export const mcpServer = z.strictObject({
  name: z.string().min(1).max(100),
  url: z
    .string()
    .max(2000)
    .refine((u) => {
      try {
        const p = new URL(u).protocol;
        return p === "http:" || p === "https:";
      } catch {
        return false;
      }
    }, "an http(s) URL"),
  transport: z.string().min(1).max(50),
});

/** `propose_agent`'s input, exactly the goals contract's (plus bounds on strings and arrays). */
export const proposeAgentInput = z.strictObject({
  goal_id: z.number().int().positive().max(MAX_DB_INT),
  parent_task_id: z.number().int().positive().max(MAX_DB_INT),
  name: z
    .string()
    .min(3)
    .max(64)
    .regex(/^[a-z][a-z0-9-]*$/, "a lowercase letter, then lowercase letters, digits and '-'"),
  model: z.string().min(1).max(200),
  system_prompt: z.string().min(20).max(16_000),
  tool_scope: z.array(z.string().min(1).max(64)).min(1).max(100),
  skills: z.array(z.string().min(1).max(64)).max(50).optional(),
  mcp_servers: z.array(mcpServer).max(20).optional(),
  subagents: z.array(z.string().min(1).max(64)).max(50).optional(),
  autonomy_tier: z.enum(["supervised", "assisted", "autonomous"]),
  reason: z.string().min(10).max(4000),
});
export type ProposeAgentInput = z.infer<typeof proposeAgentInput>;

export const proposeAgentOutput = z.object({
  proposal_id: z.number().int(),
  approval_message_id: z.number().int(),
});

/** What an agent proposal stores (`Proposal.payloadJson`) and hashes (`contentHash`): everything but goal_id. */
export type AgentPayload = Omit<ProposeAgentInput, "goal_id">;

export const agentPayload = ({ goal_id: _, ...rest }: ProposeAgentInput): AgentPayload => ({
  ...rest,
  tool_scope: [...new Set(rest.tool_scope)],
});

/**
 * The new agent's config hash, its reputation key: canonical JSON of model, prompt, scope (sorted), tier
 * and MCP servers. The same configuration proposed again shares its reputation.
 */
export const agentConfigHash = (p: AgentPayload) =>
  contentHash({
    model: p.model,
    system_prompt: p.system_prompt,
    tool_scope: [...p.tool_scope].sort(),
    autonomy_tier: p.autonomy_tier,
    mcp_servers: p.mcp_servers ?? [],
  });

type Proposer = {
  id: number;
  spawnDepth: number;
  toolScopeJson: string | null;
  autonomyTier: string;
};
type GoalRow = {
  id: number;
  ownerId: number;
  maxSpawnDepth: number;
  budgetCents: number | null;
  budgetTokens: number | bigint | null;
  spentCents: number;
  spentTokens: number | bigint;
};
type TaskRow = { id: number; budgetCents: number | null; budgetTokens: number | bigint | null };

const cap = (which: string, message: string, details: Record<string, unknown>) =>
  new DomainError("ErrDelegationCapExceeded", message, { details: { which, ...details } });

/**
 * The grant rules of an agent proposal, checked when it is proposed and again when it is approved (the
 * proposer's scope, the goal's spending and the owner's agents may have changed in between):
 * - depth: proposer.spawn_depth + 1 ≤ goal.max_spawn_depth (`ErrSpawnDepthExceeded`);
 * - the delegation cap (`ErrDelegationCapExceeded`, `details.which`): `tool_scope` ⊆ the proposer's own
 *   scope, `autonomy_tier` ≤ the proposer's, and the budget the agent works under (its parent task's
 *   `budget_dollars_cents` / `budget_tokens`) ≤ what remains of the goal's budget;
 * - the name (`ErrAgentNameTaken`): no active agent of the same owner has it, and no agent of this goal
 *   ever had it (names are unique per goal).
 */
export async function checkAgentGrant(
  u: ReadUnit,
  proposer: Proposer,
  goal: GoalRow,
  task: TaskRow,
  p: AgentPayload,
): Promise<void> {
  if (proposer.spawnDepth + 1 > goal.maxSpawnDepth) {
    throw new DomainError(
      "ErrSpawnDepthExceeded",
      `An agent proposed by you would sit at depth ${proposer.spawnDepth + 1}; goal ${goal.id} allows ${goal.maxSpawnDepth}.`,
      {
        details: {
          spawn_depth: proposer.spawnDepth,
          max_spawn_depth: goal.maxSpawnDepth,
        },
      },
    );
  }
  const excess = scopeExcess(parseScope(proposer.toolScopeJson), p.tool_scope);
  if (excess.length > 0) {
    throw cap("tool_scope", `tool_scope grants tools outside your own scope: ${excess.join(", ")}.`, {
      excess,
    });
  }
  if (tierRank(p.autonomy_tier) > tierRank(proposer.autonomyTier)) {
    throw cap(
      "autonomy_tier",
      `autonomy_tier ${p.autonomy_tier} is above your own (${proposer.autonomyTier}).`,
      { proposed: p.autonomy_tier, yours: proposer.autonomyTier },
    );
  }
  // issue 12: once agents carry their own budget grant, compare with the proposer's remaining grant here
  // (and refuse with ErrGoalBudgetExceeded while the goal is paused for budget).
  const budgets = [
    ["budget_dollars_cents", task.budgetCents, goal.budgetCents, goal.spentCents],
    ["budget_tokens", task.budgetTokens, goal.budgetTokens, goal.spentTokens],
  ] as const;
  for (const [field, a, budget, spent] of budgets) {
    if (a === null || budget === null) continue;
    // Token budgets are 64-bit columns (bigint from Prisma); every value is below 2^53 (docs/budgets.md).
    const asked = Number(a);
    const remaining = Math.max(0, Number(budget) - Number(spent));
    if (asked > remaining) {
      throw cap(
        "budget",
        `Task ${task.id}'s ${field} (${asked}) is above what remains of the goal's budget (${remaining}).`,
        { field, proposed: asked, remaining },
      );
    }
  }
  const taken = await u.db.agent.findFirst({
    where: {
      name: p.name,
      OR: [{ goalId: goal.id }, { goal: { ownerId: goal.ownerId }, ...notTerminatedWhere }],
    },
    select: { id: true, goalId: true },
  });
  if (taken) {
    throw new DomainError("ErrAgentNameTaken", `An agent named ${p.name} exists already (#${taken.id}).`, {
      details: { name: p.name, agent_id: taken.id, goal_id: taken.goalId },
    });
  }
}

/** The proposal as the `#approvals` post reads. */
export function renderAgentProposal(p: AgentPayload, proposerScope: string[] | null): string {
  const scope = p.tool_scope.join(", ");
  const dropped =
    proposerScope === null ? "" : proposerScope.filter((t) => !p.tool_scope.includes(t)).join(", ");
  const lines = [
    `Name: ${p.name}`,
    `Model: ${p.model}`,
    `Autonomy tier: ${p.autonomy_tier}`,
    `Tool scope: ${scope}${dropped ? ` (not granted from the proposer's: ${dropped})` : ""}`,
    `Parent task: #${p.parent_task_id}`,
    ...(p.mcp_servers?.length
      ? [
          "MCP servers (the agent sends data there):",
          ...p.mcp_servers.map((s) => `  - ${s.name}: ${s.url} (${s.transport})`),
        ]
      : ["MCP servers: none"]),
    ...(p.skills?.length ? [`Skills: ${p.skills.join(", ")}`] : []),
    ...(p.subagents?.length ? [`Subagents: ${p.subagents.join(", ")}`] : []),
    `Reason: ${p.reason}`,
    "System prompt:",
    p.system_prompt,
  ];
  return lines.join("\n");
}
