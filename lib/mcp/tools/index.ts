import type { ToolDef } from "../registry";
import { createGoalTool } from "./goals";
import { listPeersTool, readInboxTool, sendMessageTool } from "./messaging";
import { whoamiTool } from "./whoami";

/** Every MCP tool Switchboard serves. The server is built by looping over this list. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds tools of different input/output types
export const TOOLS: ToolDef<any, any, any>[] = [
  createGoalTool,
  sendMessageTool,
  readInboxTool,
  listPeersTool,
  whoamiTool,
];
