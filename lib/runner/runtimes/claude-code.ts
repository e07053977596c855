import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  type CanUseTool,
  type HookCallback,
  type Options,
  type PermissionMode,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import {
  DISALLOWED_ALIAS_DENIED,
  DISALLOWED_ALIASES,
  decideTool,
  HUB_SERVER,
  PERMISSION_DENIED,
  RUNNER_FED_HIDDEN_HUB_TOOLS,
} from "./claude-code-policy";
import { AsyncQueue } from "./queue";
import type { AgentLaunch, AgentSession, Delivery, Runtime, RuntimeEvent } from "./types";

/**
 * The `claude-code` runtime (issue 11): real Claude Code through the TypeScript Claude Agent SDK in
 * streaming-input mode, one long-lived session (one process) per agent. The runner delivers each inbox
 * message as a user turn; the session's only MCP server is the hub's `/mcp` with the agent's key; nothing
 * ever waits on an interactive prompt. docs/runtimes.md describes what is configured and why.
 */

export type ClaudeCodeRuntimeOptions = {
  /**
   * The operator's environment. Only the variables a model client needs (PATH, HOME, locale, proxies, CA
   * certificates, `ANTHROPIC_*`, Bedrock/Vertex settings) pass to the agent program: the hub's own
   * settings (database URL, secrets) never do. Default: this process's environment.
   */
  baseEnv?: Record<string, string | undefined>;
  /** Tool-call timeout for the hub's MCP server; `ask_user` blocks until answered. Default 1 hour. */
  mcpToolTimeoutMs?: number;
  /** How long stop() waits for a clean exit before it kills. Default 30 s. */
  stopGraceMs?: number;
  /**
   * A Claude config directory that is already logged in (`claude /login`): its `.credentials.json` is copied
   * into each agent's own config directory. Default: the operator's `CLAUDE_CONFIG_DIR`, if set.
   */
  loginConfigDir?: string;
  /** Claude Code to run instead of the CLI bundled with the SDK. */
  pathToClaudeCodeExecutable?: string;
};

const PASSED_ENV = [
  /^PATH$/,
  /^HOME$/,
  /^USER$/,
  /^LOGNAME$/,
  /^SHELL$/,
  /^TERM$/,
  /^TZ$/,
  /^TMPDIR$/,
  /^LANG(UAGE)?$/,
  /^LC_[A-Z_]+$/,
  /^(HTTPS?|NO|ALL)_PROXY$/i,
  /^NODE_EXTRA_CA_CERTS$/,
  /^SSL_CERT_(FILE|DIR)$/,
  /^ANTHROPIC_[A-Z0-9_]+$/,
  /^CLAUDE_CODE_USE_(BEDROCK|VERTEX|FOUNDRY)$/,
  /^AWS_[A-Z0-9_]+$/,
  /^CLOUD_ML_REGION$/,
  /^GOOGLE_APPLICATION_CREDENTIALS$/,
  /^VERTEX_REGION_[A-Z0-9_]+$/,
];

/** The operator's variables an agent program inherits (see ClaudeCodeRuntimeOptions.baseEnv). */
export function passedEnv(base: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base))
    if (v !== undefined && PASSED_ENV.some((re) => re.test(k))) out[k] = v;
  return out;
}

const PERMISSION_MODES = new Set<PermissionMode>([
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
]);

function permissionMode(l: AgentLaunch): PermissionMode {
  const mode = (l.permissionMode ?? "default") as PermissionMode;
  if (!PERMISSION_MODES.has(mode))
    throw new Error(`claude-code: unknown permission mode "${l.permissionMode}"`);
  return mode;
}

/** Longest text of one tool result carried in an event (the transcript is bounded). */
export const TOOL_RESULT_MAX_CHARS = 8_000;

function resultText(content: unknown): string {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((b) =>
              b && typeof b === "object" && "text" in b && typeof b.text === "string" ? b.text : "",
            )
            .join("\n")
        : "";
  return text.length > TOOL_RESULT_MAX_CHARS ? `${text.slice(0, TOOL_RESULT_MAX_CHARS)}… [truncated]` : text;
}

/** A session transcript Claude Code saved under this config directory, if it exists. */
function savedSession(configDir: string, sessionId: string): boolean {
  const projects = path.join(configDir, "projects");
  if (!fs.existsSync(projects)) return false;
  return fs.readdirSync(projects).some((d) => fs.existsSync(path.join(projects, d, `${sessionId}.jsonl`)));
}

/**
 * The session's running list-price total as of its last turn, kept beside its config directory: Claude Code
 * starts a resumed session from the totals its transcript saved, so the first turn after a resume would
 * otherwise be charged the whole earlier conversation again.
 */
const costFile = (workspace: string) => path.join(workspace, ".switchboard", "session-cost.json");

function savedCost(workspace: string, sessionId: string): number {
  try {
    const saved = JSON.parse(fs.readFileSync(costFile(workspace), "utf8")) as Record<string, number>;
    return typeof saved[sessionId] === "number" ? saved[sessionId] : 0;
  } catch {
    return 0;
  }
}

function saveCost(workspace: string, sessionId: string, total: number): void {
  fs.writeFileSync(costFile(workspace), JSON.stringify({ [sessionId]: total }));
}

/**
 * Model API errors after which no turn can work (Claude Code's `SDKAssistantMessageError`): the credential
 * is missing or refused, the account or model cannot be used. Claude Code answers them as the turn's text
 * ("Not logged in · Please run /login") or retries them for minutes (a 401 behind a custom base URL); the
 * runtime ends the session at the first sign instead, as a failed launch.
 */
const CREDENTIAL_ERRORS = new Set([
  "authentication_failed",
  "oauth_org_not_allowed",
  "account_on_hold",
  "verification_required",
  "billing_error",
  "cloud_credential_error",
  "model_not_found",
]);

const CREDENTIAL_HELP =
  "The runner needs a model credential: ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, Bedrock/Vertex settings) in its environment, or CLAUDE_CONFIG_DIR naming a logged-in Claude config directory (docs/runtimes.md, Model credentials).";

/** One user message of the session's streaming input (a turn). */
function userMessage(text: string): SDKUserMessage {
  return {
    type: "user",
    message: { role: "user", content: text },
    parent_tool_use_id: null,
  } as SDKUserMessage;
}

class ClaudeCodeSession implements AgentSession {
  readonly fedByRunner = true;
  private readonly out = new AsyncQueue<RuntimeEvent>();
  private readonly input = new AsyncQueue<{
    message: SDKUserMessage;
    accepted: () => void;
    refused: (e: Error) => void;
  }>();
  /** Turns taken by Claude Code and not ended yet (oldest first): each settles its delivery's `done`. */
  private readonly turns: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** Why this launch cannot work (set once; the session is ended at once). */
  private fatal: string | undefined;
  private readonly abort = new AbortController();
  private child: ChildProcess | undefined;
  private childExit: Promise<{ code: number | null; signal: string | null }> | undefined;
  private stderrTail = "";
  private killed = false;
  /** Settles once the `exit` event has been emitted. */
  readonly exited: Promise<void>;
  /** tool_use id → tool name, for results and layer-1 refusals. */
  private readonly toolNames = new Map<string, string>();
  /** tool_use id → why this runtime denied it (emitted with the call's result, so events stay in order). */
  private readonly denials = new Map<string, { name: string; reason: string }>();
  private model: string;
  private costSoFar = 0;
  /** Turns completed in this launch (its `maxTurns` ends the session). */
  private turnsDone = 0;
  private limitHit = false;
  private sessionId: string | undefined;

  constructor(
    private readonly launch: AgentLaunch,
    private readonly opts: Required<Pick<ClaudeCodeRuntimeOptions, "mcpToolTimeoutMs" | "stopGraceMs">> &
      ClaudeCodeRuntimeOptions,
  ) {
    this.model = launch.model ?? "";
    this.exited = this.run();
  }

  get events(): AsyncIterable<RuntimeEvent> {
    return this.out;
  }

  deliver(text: string, messageId?: string): Promise<Delivery> {
    if (this.input.closed)
      return Promise.reject(new Error("the session has ended; nothing can be delivered"));
    let turn: { resolve: () => void; reject: (e: Error) => void } = { resolve() {}, reject() {} };
    const done = new Promise<void>((resolve, reject) => {
      turn = { resolve, reject };
    });
    done.catch(() => {}); // a caller that does not wait for the turn is not an unhandled rejection
    return new Promise((accepted, refused) =>
      this.input.push({
        message: userMessage(text),
        accepted: () => {
          if (messageId) this.out.push({ type: "turn.input", messageId });
          this.turns.push(turn);
          accepted({ done });
        },
        refused,
      }),
    );
  }

  /** The launch cannot work: fail the turns in progress (their messages stay unacknowledged) and end now. */
  private fail(error: string): void {
    if (this.fatal) return;
    this.fatal = error;
    for (const t of this.turns.splice(0)) t.reject(new Error(error));
    this.input.close();
    if (this.child && this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill("SIGKILL");
    this.abort.abort();
  }

  async stop(): Promise<void> {
    this.input.close();
    const timer = setTimeout(() => this.kill(), this.opts.stopGraceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    this.killed = true;
    this.input.close();
    if (this.child && this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill("SIGKILL");
    this.abort.abort();
  }

  private async *prompts(): AsyncGenerator<SDKUserMessage> {
    for await (const item of this.input) {
      item.accepted();
      yield item.message;
    }
  }

  private options(): Options {
    const l = this.launch;
    const configDir = path.join(l.workspace, ".switchboard", "claude");
    fs.mkdirSync(configDir, { recursive: true });
    const login = this.opts.loginConfigDir ?? this.opts.baseEnv?.CLAUDE_CONFIG_DIR;
    const creds = login && path.join(login, ".credentials.json");
    if (creds && fs.existsSync(creds)) {
      fs.copyFileSync(creds, path.join(configDir, ".credentials.json"));
      fs.chmodSync(path.join(configDir, ".credentials.json"), 0o600);
    }
    const resume =
      l.resumeSessionId && savedSession(configDir, l.resumeSessionId) ? l.resumeSessionId : undefined;
    if (resume) this.costSoFar = savedCost(l.workspace, resume);
    const mode = permissionMode(l);

    const denyHook: HookCallback = async (input) => {
      if (input.hook_event_name !== "PreToolUse") return {};
      const d = decideTool(input.tool_name);
      // The hub's tools are the agent's job: allowed in every permission mode (`dontAsk` included).
      if (input.tool_name.startsWith(`mcp__${HUB_SERVER}__`)) {
        return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };
      }
      if (d.behavior === "allow") return {};
      this.denials.set(input.tool_use_id, { name: input.tool_name, reason: d.reason });
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: d.message,
        },
      };
    };
    // Reached only for a tool the permission mode would ask about: nobody answers prompts, so it is denied.
    const canUseTool: CanUseTool = async (name, _input, o) => {
      this.denials.set(o.toolUseID, { name, reason: PERMISSION_DENIED });
      return {
        behavior: "deny",
        message: `${name} needs a permission this agent's template does not grant; nobody can approve it here. Work without it, or ask your leader.`,
      };
    };

    return {
      cwd: l.workspace,
      abortController: this.abort,
      systemPrompt: l.systemPrompt,
      model: l.model,
      // `dontAsk` denies what is not pre-approved without a word; `default` with canUseTool below does the
      // same and reports each denial as an event.
      permissionMode: mode === "dontAsk" ? "default" : mode,
      allowDangerouslySkipPermissions: mode === "bypassPermissions",
      allowedTools: l.allowedTools ?? [],
      disallowedTools: [...Object.keys(DISALLOWED_ALIASES), ...RUNNER_FED_HIDDEN_HUB_TOOLS],
      canUseTool,
      hooks: { PreToolUse: [{ hooks: [denyHook] }] },
      mcpServers: {
        [HUB_SERVER]: {
          type: "http",
          url: l.mcpUrl,
          headers: { Authorization: `Bearer ${l.apiKey}` },
          timeout: this.opts.mcpToolTimeoutMs,
          // The hub's tools are in the first request (startup waits for the connection, at most 5 s).
          alwaysLoad: true,
        },
      },
      // Keys stay off the command line.
      mcpServersDelivery: "initialize",
      strictMcpConfig: true,
      settingSources: [],
      resume,
      pathToClaudeCodeExecutable: this.opts.pathToClaudeCodeExecutable,
      env: {
        ...passedEnv(this.opts.baseEnv ?? {}),
        ...l.env,
        CLAUDE_CONFIG_DIR: configDir,
        DISABLE_TELEMETRY: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        ENABLE_TOOL_SEARCH: "false",
        MCP_TOOL_TIMEOUT: String(this.opts.mcpToolTimeoutMs),
        CLAUDE_AGENT_SDK_CLIENT_APP: "switchboard",
      },
      spawnClaudeCodeProcess: (o) => {
        const child = spawn(o.command, o.args, {
          cwd: o.cwd,
          env: o.env as NodeJS.ProcessEnv,
          stdio: ["pipe", "pipe", "pipe"],
        });
        this.child = child;
        if (child.pid) this.launch.onProcess?.({ pid: child.pid, group: false });
        this.childExit = new Promise((resolve) =>
          child.once("exit", (code, signal) => resolve({ code, signal })),
        );
        child.stderr?.setEncoding("utf8");
        child.stderr?.on("data", (d: string) => {
          this.stderrTail = (this.stderrTail + d).slice(-4000);
        });
        if (this.killed) child.kill("SIGKILL");
        return child;
      },
    };
  }

  private async run(): Promise<void> {
    let error: string | undefined;
    try {
      const q = query({ prompt: this.prompts(), options: this.options() });
      for await (const m of q) this.handle(m);
    } catch (e) {
      if (!this.killed && !this.fatal) error = e instanceof Error ? e.message : String(e);
    }
    this.input.close();
    for (const item of this.input.drain())
      item.refused(new Error("the session ended before this was delivered"));
    for (const t of this.turns.splice(0)) t.reject(new Error("the session ended before its turn did"));
    const exit = this.childExit ? await this.childExit : { code: null, signal: null };
    if (this.fatal) error = this.fatal;
    else if (!error && exit.code !== 0 && exit.code !== null && this.stderrTail)
      error = this.stderrTail.trim();
    this.out.push({
      type: "exit",
      code: exit.code,
      signal: exit.signal,
      ...(error ? { error } : {}),
      ...(this.fatal ? { launchFailed: true } : {}),
      ...(this.limitHit && !this.fatal ? { limit: "max_turns" as const, turns: this.turnsDone } : {}),
    });
    this.out.close();
  }

  private handle(m: SDKMessage): void {
    if (this.fatal) return;
    switch (m.type) {
      case "system":
        // A refused credential behind a custom base URL: Claude Code would retry it for minutes.
        if (m.subtype === "api_retry" && CREDENTIAL_ERRORS.has(m.error)) {
          this.fail(
            `Claude Code cannot use the model: the API answered ${m.error_status ?? "an error"} (${m.error}). ${CREDENTIAL_HELP}`,
          );
          return;
        }
        if (m.subtype === "init" && m.session_id !== this.sessionId) {
          this.sessionId = m.session_id;
          if (!this.launch.model) this.model = m.model;
          this.out.push({ type: "session", sessionId: m.session_id });
        }
        return;
      case "assistant": {
        if (m.parent_tool_use_id) return;
        for (const b of m.message.content) {
          if (b.type === "text" && b.text) this.out.push({ type: "assistant_text", text: b.text });
          else if (b.type === "tool_use") {
            this.toolNames.set(b.id, b.name);
            this.out.push({ type: "tool_called", toolUseId: b.id, name: b.name, input: b.input });
          }
        }
        // "Not logged in · Please run /login" arrives as the turn's (synthetic) answer.
        if (m.error && CREDENTIAL_ERRORS.has(m.error)) {
          const said = m.message.content
            .map((b) => (b.type === "text" ? b.text : ""))
            .join(" ")
            .trim();
          this.fail(
            `Claude Code cannot use the model: "${said || m.error}" (${m.error}). ${CREDENTIAL_HELP}`,
          );
        }
        return;
      }
      case "user": {
        if (m.parent_tool_use_id) return;
        const content = m.message.content;
        if (!Array.isArray(content)) return;
        for (const b of content) {
          if (b.type !== "tool_result") continue;
          const name = this.toolNames.get(b.tool_use_id) ?? "";
          const denial =
            this.denials.get(b.tool_use_id) ??
            (DISALLOWED_ALIASES[name] ? { name, reason: DISALLOWED_ALIAS_DENIED } : undefined);
          if (denial) this.out.push({ type: "tool_denied", name: denial.name, reason: denial.reason });
          this.out.push({
            type: "tool_result",
            toolUseId: b.tool_use_id,
            isError: b.is_error === true,
            content: resultText(b.content),
          });
        }
        return;
      }
      case "result": {
        // A turn that ended on a model API error did no work: the launch failed (its message stays pending).
        if (m.is_error && m.terminal_reason === "api_error") {
          const said = "result" in m ? m.result : m.subtype;
          const status = "api_error_status" in m ? m.api_error_status : null;
          const auth = status === 401 || status === 403;
          this.fail(
            `Claude Code's turn ended on a model API error: "${said}".${auth ? ` ${CREDENTIAL_HELP}` : ""}`,
          );
          return;
        }
        // `usage` is this turn's; `total_cost_usd` and `modelUsage` run over the whole session.
        const turnCost = Math.max(0, m.total_cost_usd - this.costSoFar);
        this.costSoFar = m.total_cost_usd;
        try {
          saveCost(this.launch.workspace, m.session_id, m.total_cost_usd);
        } catch {} // a lost figure only overcharges the first turn after a resume
        const models = Object.keys(m.modelUsage ?? {});
        this.out.push({
          type: "turn.usage",
          model: this.model || models[0] || "unknown",
          inputTokens: m.usage.input_tokens ?? 0,
          outputTokens: m.usage.output_tokens ?? 0,
          cacheReadTokens: m.usage.cache_read_input_tokens ?? 0,
          cacheWriteTokens: m.usage.cache_creation_input_tokens ?? 0,
          costUsd: Number(turnCost.toFixed(6)),
        });
        this.out.push({ type: "turn.end", isError: m.is_error });
        // Claude Code may fold messages queued during a turn into one: none queued, every taken turn ended.
        if (!m.queued_turn_count) for (const t of this.turns.splice(0)) t.resolve();
        else this.turns.shift()?.resolve();
        // The template's max_turns: no further turn is taken (what is queued stays unacknowledged in the
        // inbox); closing the input ends the session cleanly once Claude Code has finished.
        this.turnsDone++;
        const max = this.launch.maxTurns;
        if (max && this.turnsDone >= max && !this.limitHit) {
          this.limitHit = true;
          this.input.close();
          for (const item of this.input.drain())
            item.refused(new Error(`the session ended on its max_turns limit (${max})`));
        }
        return;
      }
    }
  }
}

/** The `claude-code` runtime. */
export function claudeCodeRuntime(opts: ClaudeCodeRuntimeOptions = {}): Runtime {
  const o = {
    baseEnv: opts.baseEnv ?? process.env,
    mcpToolTimeoutMs: opts.mcpToolTimeoutMs ?? 60 * 60_000,
    stopGraceMs: opts.stopGraceMs ?? 30_000,
    ...(opts.loginConfigDir ? { loginConfigDir: opts.loginConfigDir } : {}),
    ...(opts.pathToClaudeCodeExecutable
      ? { pathToClaudeCodeExecutable: opts.pathToClaudeCodeExecutable }
      : {}),
  };
  return {
    name: "claude-code",
    async start(launch) {
      permissionMode(launch); // a template error fails the launch, not the session later
      fs.mkdirSync(launch.workspace, { recursive: true });
      return new ClaudeCodeSession(launch, o);
    },
  };
}
