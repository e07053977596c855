import { AUTONOMY_GATED } from "@/lib/domain/agents/autonomy";
import { BUDGET_GATED, TASK_BUDGET_GATED } from "@/lib/domain/usage/budget-gate";
import type { ErrorCode } from "@/lib/errors";
import type { AnyTool } from "../registry";
import { proposeAgentTool, unquarantineAgentTool } from "./agents";
import { createGoalTool, proposeTaskTreeTool } from "./goals";
import { listPeersTool, readInboxTool, sendMessageTool } from "./messaging";
import { answerQuestionTool, askUserTool, escalateQuestionTool } from "./questions";
import { listResourcesTool, requestResourceTool } from "./secrets";
import { claimTaskTool, completeTaskTool, listTasksTool, verifyTaskTool } from "./tasks";
import { TEAM_TOOLS } from "./teams";
import { pauseGoalTool, reportUsageTool, resumeGoalTool } from "./usage";
import { whoamiTool } from "./whoami";

/** The budget gate (lib/domain/usage/budget-gate.ts) runs before these tools: their error lists say so. */
/** …and the autonomy gate (lib/domain/agents/autonomy.ts) before these. */
function withGateErrors(t: AnyTool): AnyTool {
  const extra: ErrorCode[] = [];
  if (BUDGET_GATED.has(t.name)) extra.push("ErrGoalBudgetExceeded");
  if (TASK_BUDGET_GATED.has(t.name)) extra.push("ErrTaskBudgetExceeded");
  if (AUTONOMY_GATED.has(t.name)) extra.push("approval_required");
  return extra.length ? { ...t, errors: [...t.errors, ...extra] } : t;
}

/** Every MCP tool Switchboard serves. The server is built by looping over this list. */
export const TOOLS: AnyTool[] = (
  [
    createGoalTool,
    sendMessageTool,
    readInboxTool,
    listPeersTool,
    whoamiTool,
    // goals: task trees, claiming, verification
    proposeTaskTreeTool,
    claimTaskTool,
    completeTaskTool,
    verifyTaskTool,
    listTasksTool,
    // questions to humans, up the leader chain
    askUserTool,
    answerQuestionTool,
    escalateQuestionTool,
    ...TEAM_TOOLS,
    // secrets (issue 14: names and availability only; values never cross MCP)
    requestResourceTool,
    listResourcesTool,
    // agent proposals and quarantine (issue 13)
    proposeAgentTool,
    unquarantineAgentTool,
    // usage and budgets (issue 12)
    reportUsageTool,
    resumeGoalTool,
    pauseGoalTool,
  ] as AnyTool[]
).map(withGateErrors);

/** The names of every tool an agent may be given (a `tool_scope` names only these). */
export const agentToolNames = () => TOOLS.filter((t) => t.audience !== "owner").map((t) => t.name);
