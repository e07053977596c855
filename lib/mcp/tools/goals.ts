import { createGoal, createGoalInput, createGoalOutput } from "@/lib/domain/goals/create-goal";
import { defineTool } from "../registry";

export const createGoalTool = defineTool({
  name: "create_goal",
  title: "Create a goal",
  audience: "owner",
  readOnly: false,
  description:
    "Create a new high-level goal with a backing channel (#goal-<slug>) and assign a coordinator. The goal starts in draft; budgets are in cents and tokens; max_spawn_depth is 1-10 (default 3); coordinator_config names a coordinator template (default 'default'). Errors: invalid_input names the offending field.",
  input: createGoalInput,
  output: createGoalOutput,
  handler: ({ caller }, input) => createGoal(caller.userId, input),
});
