import type { AnyTool } from "../registry";
import { proposeAgentTool, unquarantineAgentTool } from "./agents";
import { createGoalTool, proposeTaskTreeTool } from "./goals";
import { listPeersTool, readInboxTool, sendMessageTool } from "./messaging";
import { answerQuestionTool, askUserTool, escalateQuestionTool } from "./questions";
import { listResourcesTool, requestResourceTool } from "./secrets";
import { claimTaskTool, completeTaskTool, listTasksTool, verifyTaskTool } from "./tasks";
import { TEAM_TOOLS } from "./teams";
import { whoamiTool } from "./whoami";

/** Every MCP tool Switchboard serves. The server is built by looping over this list. */
export const TOOLS: AnyTool[] = [
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
  // issue 14: secrets (names and availability only; values never cross MCP)
  requestResourceTool,
  listResourcesTool,
  // agent proposals and quarantine (issue 13)
  proposeAgentTool,
  unquarantineAgentTool,
];

/** The names of every tool an agent may be given (a `tool_scope` names only these). */
export const agentToolNames = () => TOOLS.filter((t) => t.audience !== "owner").map((t) => t.name);
