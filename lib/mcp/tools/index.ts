import type { AnyTool } from "../registry";
import { createGoalTool } from "./goals";
import { listPeersTool, readInboxTool, sendMessageTool } from "./messaging";
import { TEAM_TOOLS } from "./teams";
import { whoamiTool } from "./whoami";

/** Every MCP tool Switchboard serves. The server is built by looping over this list. */
export const TOOLS: AnyTool[] = [
  createGoalTool,
  sendMessageTool,
  readInboxTool,
  listPeersTool,
  whoamiTool,
  ...TEAM_TOOLS,
];
