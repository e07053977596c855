import { proposeAgent, proposeAgentInput, proposeAgentOutput } from "@/lib/domain/proposals/propose-agent";
import {
  unquarantineAgent,
  unquarantineInput,
  unquarantineOutput,
} from "@/lib/domain/reputation/unquarantine";
import { defineTool } from "../registry";
import { agentToolNames } from "./index";

export const proposeAgentTool = defineTool({
  name: "propose_agent",
  title: "Propose a specialist agent",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description: [
    "Propose spawning a new specialist sub-agent for a task of your goal (parent_task_id): name (lowercase, digits, '-'),",
    "model, system_prompt, tool_scope (Switchboard tool names, all within your own scope), autonomy_tier (not above yours),",
    "optional skills, mcp_servers ({name, url, transport}; http(s) URLs, shown to the owner) and subagents, and a reason.",
    "Subject to the delegation cap and the goal's max_spawn_depth, checked before anything is written. Nothing is created",
    "until the owner approves in #approvals; the decision reaches your inbox (approval names the new agent, who reports",
    "to you; a rejection carries the reason). Calling again with identical content returns the pending proposal.",
  ].join(" "),
  errors: [
    "ErrSpawnDepthExceeded",
    "ErrDelegationCapExceeded",
    "ErrAgentNameTaken",
    "ErrGoalNotOpen",
    "not_found",
    "invalid_input",
  ],
  input: proposeAgentInput,
  output: proposeAgentOutput,
  handler: ({ caller }, input) => proposeAgent(caller, input, agentToolNames()),
});

export const unquarantineAgentTool = defineTool({
  name: "unquarantine_agent",
  title: "Lift an agent's quarantine",
  audience: "owner",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description:
    "Lift quarantine on one of your agents (quarantined when its reputation fell below 0.3): it may claim tasks again. Reputation is unchanged, so a further failing verdict quarantines it again. An event records who lifted it.",
  errors: ["not_quarantined", "not_found", "invalid_input"],
  input: unquarantineInput,
  output: unquarantineOutput,
  handler: ({ caller }, input) => unquarantineAgent(caller.userId, input.agent_id),
});
