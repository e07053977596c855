/**
 * The contract between the runner and an agent runtime (issue 11): the runner decides what runs and
 * when (launch jobs, leases, the inbox, crashes, termination); a runtime only knows how to start one
 * agent program, hand it a turn, and say what it did. Runtimes: `claude-code` (the Claude Agent SDK in
 * streaming-input mode, one long-lived session per agent) and `command` (any program; it reads its own
 * inbox over MCP).
 */

/** Everything a runtime needs to start one agent. Built by the runner from the hub's launch job. */
export type AgentLaunch = {
  agentId: number;
  goalId: number;
  name: string;
  role: string;
  /** The hub's MCP endpoint (`…/mcp`) and the agent's own API key for it. Never logged. */
  mcpUrl: string;
  apiKey: string;
  /** The full system prompt: the skill/template plus the agent's identity and team. */
  systemPrompt: string;
  model?: string;
  /** `claude-code`: the template's permission mode (`default`, `acceptEdits`, `bypassPermissions`, `plan`,
   * `dontAsk`; default `default`) and the tools it allows without asking. Nothing is ever prompted: a tool
   * the mode would ask about is denied (a `tool_denied` event). */
  permissionMode?: string;
  allowedTools?: string[];
  /** The template's `max_turns` (claude-code): after this many completed turns the runtime ends the session
   * cleanly (no further delivery is taken) and its `exit` says `limit: "max_turns"`. Ignored by `command`. */
  maxTurns?: number;
  /** Told the pid of each agent program the runtime starts (and whether it leads its own process group),
   * so the runner can end it if the runner itself dies (docs/runner.md, "Orphans"). */
  onProcess?: (p: { pid: number; group: boolean }) => void;
  /** The agent's own working directory (never the hub's data directory). */
  workspace: string;
  /** Extra environment for the agent program (task context, secrets once they exist). */
  env: Record<string, string>;
  /** A session to resume (a relaunch after a crash or on another runner), when the runtime supports it. */
  resumeSessionId?: string;
  /** `command` runtime: the program and its arguments. */
  command?: { cmd: string; args?: string[] };
};

/** What a running agent reports. The runner forwards these to the hub (events, usage, transcript). */
export type RuntimeEvent =
  | { type: "session"; sessionId: string }
  /** The runtime took a delivered inbox message as its next turn (before anything the turn does). */
  | { type: "turn.input"; messageId: string }
  | { type: "assistant_text"; text: string }
  | { type: "tool_called"; toolUseId: string; name: string; input: unknown }
  | { type: "tool_result"; toolUseId: string; isError: boolean; content: string }
  | { type: "tool_denied"; name: string; reason: string }
  | {
      type: "turn.usage";
      model: string;
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
      /** The runtime's own list-price figure for this turn, when it reports one. */
      costUsd?: number;
    }
  /** A turn ended (the runtime is idle and ready for the next delivered message). */
  | { type: "turn.end"; isError: boolean }
  /** stdout/stderr of a `command` agent, line by line. */
  | { type: "output"; stream: "stdout" | "stderr"; line: string }
  /** The last event. `launchFailed`: the runtime found the launch cannot work (no model credential, the
   * model API refusing it): a crash whose `error` tells the owner why. */
  | {
      type: "exit";
      code: number | null;
      signal: string | null;
      error?: string;
      launchFailed?: boolean;
      /** The session ended itself on the launch's `maxTurns`, after `turns` completed turns. */
      limit?: "max_turns";
      turns?: number;
    };

/** A message taken by the runtime. `done` settles when the turn it started has ended: resolved when the turn
 * completed, rejected when it failed (the launch cannot work) or the session ended first. */
export type Delivery = { done: Promise<void> };

export interface AgentSession {
  /** Deliver one inbox message as a user turn; resolves once the runtime has accepted it (rejects once the
   * session has ended). The runner acknowledges the message only after `done` resolved. With `messageId`,
   * the runtime reports `turn.input` when it takes the message, so the transcript shows the turn's input
   * as it starts rather than at the acknowledgement after it. */
  deliver(text: string, messageId?: string): Promise<Delivery>;
  /** Whether this runtime takes deliveries (claude-code) or reads its own inbox over MCP (command). */
  readonly fedByRunner: boolean;
  /** End the session cleanly (the agent consumed its terminate sentinel); resolves when it has exited. */
  stop(): Promise<void>;
  /** End it now (forced termination, a paused goal past its grace period). */
  kill(): void;
  /** Every event, in order, ending with one `exit`. */
  readonly events: AsyncIterable<RuntimeEvent>;
}

export interface Runtime {
  readonly name: "claude-code" | "command";
  start(launch: AgentLaunch): Promise<AgentSession>;
}
