/**
 * What the `claude-code` runtime keeps from Claude Code's own tools (issue 11; spec "Forbidden tools"):
 * the tools that would do the hub's work behind its back are refused, each with a reason that names the
 * hub primitive to use instead. Two layers, as in the original orchestrator: the forbidden tools are left
 * out of the model's tool list (`disallowedTools`), and a PreToolUse hook denies any that still reaches
 * execution. Claude Code's built-in question tool stays offered (models reach for it by habit) and is
 * redirected: every call is denied with a message pointing at the hub's `ask_user`.
 */

/** The name the hub's MCP server is given in the session: its tools are `mcp__switchboard__<tool>`. */
export const HUB_SERVER = "switchboard";
export const hubTool = (name: string) => `mcp__${HUB_SERVER}__${name}`;

export const ASK_USER_QUESTION = "AskUserQuestion";
export const ASK_USER_QUESTION_REDIRECTED = "ask_user_question.redirected";
export const DISALLOWED_ALIAS_DENIED = "disallowed_alias.denied";
/** A tool the permission mode would have asked about: nobody is there to answer, so it is denied. */
export const PERMISSION_DENIED = "permission.denied";

export const ASK_USER_REDIRECT_MESSAGE =
  `${ASK_USER_QUESTION} is not available to Switchboard agents: nobody reads this terminal. ` +
  `Call ${hubTool("ask_user")} instead; it routes your question through your leader chain to the owner ` +
  "and returns the answer (it may take a while; if the call is cut, the answer also arrives in your inbox).";

const SPAWN = `${hubTool("spawn_agent")} (or ${hubTool("create_team")})`;
const PLAN = `${hubTool("declare_plan")} and ${hubTool("update_plan_task")} (${hubTool("signal_review")} to hand work in)`;

/** Claude Code tools that shadow a hub primitive, and what to use instead. */
export const DISALLOWED_ALIASES: Readonly<Record<string, string>> = {
  SendMessage: `use ${hubTool("send_message")}: messages between agents go through the hub's inboxes`,
  SendUserMessage: `use ${hubTool("send_message")} to your leader, or ${hubTool("ask_user")} to reach the owner`,
  SendUserFile: `put the file in your workspace and tell your leader with ${hubTool("send_message")}`,
  PushNotification: `use ${hubTool("ask_user")} or ${hubTool("send_message")}: the owner watches the hub`,
  Agent: `use ${SPAWN}: every agent is registered, budgeted and supervised by the hub`,
  Task: `use ${SPAWN}: every agent is registered, budgeted and supervised by the hub`,
  Workflow: `use ${SPAWN} and ${hubTool("propose_task_tree")}: the hub runs the team`,
  ListAgents: `use ${hubTool("list_peers")}`,
  TeamCreate: `use ${hubTool("create_team")}`,
  TeamDelete: `use ${hubTool("terminate_child")}`,
  TodoWrite: `use ${PLAN}`,
  TaskCreate: `use ${PLAN}`,
  TaskUpdate: `use ${PLAN}`,
  TaskList: `use ${hubTool("list_tasks")}`,
  TaskGet: `use ${hubTool("list_tasks")}`,
  RemoteTrigger: "scheduling other sessions is the hub's job: ask your leader",
};

/**
 * Hub tools hidden from a runner-fed agent: the runner reads its inbox and delivers each message as a
 * turn, so the agent reading it too would consume messages the runner never delivers.
 */
export const RUNNER_FED_HIDDEN_HUB_TOOLS = [hubTool("read_inbox")];

export type ToolDecision =
  | { behavior: "allow" }
  | {
      behavior: "deny";
      reason: typeof ASK_USER_QUESTION_REDIRECTED | typeof DISALLOWED_ALIAS_DENIED;
      message: string;
    };

/** The PreToolUse decision for one tool call (layer 2). */
export function decideTool(name: string): ToolDecision {
  if (name === ASK_USER_QUESTION) {
    return { behavior: "deny", reason: ASK_USER_QUESTION_REDIRECTED, message: ASK_USER_REDIRECT_MESSAGE };
  }
  const instead = DISALLOWED_ALIASES[name];
  if (instead) {
    return {
      behavior: "deny",
      reason: DISALLOWED_ALIAS_DENIED,
      message: `${name} is disabled for Switchboard agents: ${instead}.`,
    };
  }
  return { behavior: "allow" };
}
