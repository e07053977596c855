import { spawn } from "node:child_process";
import readline from "node:readline";
import { hostVariables } from "@/lib/env";
import type { AgentLaunch, AgentSession, Runtime, RuntimeEvent } from "./types";

/** Variables of the runner's own environment an agent program may see; nothing else (no runner token). */
const PASSED_THROUGH = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TZ"];
/** How long `stop()` waits after SIGTERM before it kills the program. */
const STOP_GRACE_MS = 5000;

/** An async queue of events: pushed by the process, read once by the runner. */
export class EventQueue implements AsyncIterable<RuntimeEvent> {
  private items: RuntimeEvent[] = [];
  private waiting: ((r: IteratorResult<RuntimeEvent>) => void) | undefined;
  private ended = false;
  push(e: RuntimeEvent): void {
    if (this.ended) return;
    if (e.type === "exit") this.ended = true;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value: e, done: false });
    } else this.items.push(e);
  }
  [Symbol.asyncIterator](): AsyncIterator<RuntimeEvent> {
    let exited = false;
    return {
      next: () => {
        if (exited) return Promise.resolve({ value: undefined, done: true });
        const e = this.items.shift();
        if (e) {
          if (e.type === "exit") exited = true;
          return Promise.resolve({ value: e, done: false });
        }
        return new Promise((resolve) => {
          this.waiting = (r) => {
            if (!r.done && r.value.type === "exit") exited = true;
            resolve(r);
          };
        });
      },
    };
  }
}

/** The environment of a `command` agent: the hub, its key, its identity, task and goal. */
export function commandEnvironment(launch: AgentLaunch): Record<string, string> {
  return {
    ...hostVariables(PASSED_THROUGH),
    ...launch.env,
    SWITCHBOARD_MCP_URL: launch.mcpUrl,
    SWITCHBOARD_API_KEY: launch.apiKey,
    SWITCHBOARD_AGENT_ID: String(launch.agentId),
    SWITCHBOARD_AGENT_NAME: launch.name,
    SWITCHBOARD_AGENT_ROLE: launch.role,
    SWITCHBOARD_GOAL_ID: String(launch.goalId),
    SWITCHBOARD_SYSTEM_PROMPT: launch.systemPrompt,
    SWITCHBOARD_MODEL: launch.model ?? "",
    SWITCHBOARD_WORKSPACE: launch.workspace,
    SWITCHBOARD_RESUME_SESSION_ID: launch.resumeSessionId ?? "",
  };
}

/**
 * `command`: any program (Codex CLI, Gemini CLI, aider, a script), started in the agent's workspace with
 * the hub's MCP URL and its key in the environment. It reads its own inbox over MCP (`fedByRunner` is
 * false); each stdout/stderr line is an `output` event. It runs in its own process group, so ending it
 * ends what it started.
 */
export const commandRuntime: Runtime = {
  name: "command",
  start(launch: AgentLaunch): Promise<AgentSession> {
    const command = launch.command;
    if (!command?.cmd) return Promise.reject(new Error("the template of a command agent names no command"));
    const events = new EventQueue();
    const child = spawn(command.cmd, command.args ?? [], {
      cwd: launch.workspace,
      env: commandEnvironment(launch) as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid) launch.onProcess?.({ pid: child.pid, group: true });
    const signalGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {}
    };
    let exited = false;
    // Lines are forwarded once both streams have ended, so that `exit` comes after the last line.
    const streams = (["stdout", "stderr"] as const).map(
      (stream) =>
        new Promise<void>((resolve) => {
          const rl = readline.createInterface({ input: child[stream] });
          rl.on("line", (line) => events.push({ type: "output", stream, line }));
          rl.on("close", resolve);
        }),
    );
    const done = new Promise<void>((resolve) => {
      child.on("close", async (code, signal) => {
        await Promise.all(streams);
        exited = true;
        events.push({ type: "exit", code, signal });
        resolve();
      });
    });
    return new Promise((resolve, reject) => {
      child.once("error", (e) => {
        if (exited) return;
        exited = true;
        reject(new Error(`could not start ${command.cmd}: ${e.message}`));
      });
      child.once("spawn", () =>
        resolve({
          fedByRunner: false,
          events,
          deliver: () => Promise.reject(new Error("a command agent reads its own inbox")),
          async stop() {
            if (exited) return;
            signalGroup("SIGTERM");
            const timer = setTimeout(() => signalGroup("SIGKILL"), STOP_GRACE_MS);
            await done;
            clearTimeout(timer);
          },
          kill() {
            signalGroup("SIGKILL");
          },
        }),
      );
    });
  },
};
