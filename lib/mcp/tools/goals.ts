import { createGoal, createGoalInput, createGoalOutput } from "@/lib/domain/goals/create-goal";
import {
  proposeTaskTree,
  proposeTaskTreeInput,
  proposeTaskTreeOutput,
} from "@/lib/domain/proposals/propose-task-tree";
import { defineTool } from "../registry";

export const createGoalTool = defineTool({
  name: "create_goal",
  title: "Create a goal",
  audience: "owner",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description:
    "Create a new high-level goal with a backing channel (#goal-<slug>) and assign a coordinator. The goal starts in draft; budgets are in cents and tokens; max_spawn_depth is 1-10 (default 3); coordinator_config names a coordinator template (default 'default').",
  errors: ["invalid_input"],
  input: createGoalInput,
  output: createGoalOutput,
  handler: ({ caller }, input) => createGoal(caller.userId, input),
});

export const proposeTaskTreeTool = defineTool({
  name: "propose_task_tree",
  title: "Propose a task tree",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description: [
    "Propose a decomposition of the current goal into a tree of tasks (title, description, acceptance_criteria, billing_code,",
    "budgets, verifier_config auto | peer {agent_id} | command {cmd, cwd, timeout_sec}, children). Does not create tasks: the",
    "owner approves or rejects it in #approvals and the decision reaches your inbox (a rejection carries the reason: revise and",
    "propose again). Calling again with identical content returns the pending proposal. Only the goal's coordinator may propose.",
  ].join(" "),
  errors: ["ErrProposalPending", "ErrNotCoordinator", "ErrGoalNotOpen", "not_found", "invalid_input"],
  input: proposeTaskTreeInput,
  output: proposeTaskTreeOutput,
  handler: ({ caller }, input) => proposeTaskTree(caller, input),
});
