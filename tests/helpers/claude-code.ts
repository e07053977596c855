import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { AgentSession, RuntimeEvent } from "@/lib/runner/runtimes/types";

/**
 * Why the Claude Agent SDK's bundled Claude Code cannot start on this machine, or undefined when it can.
 * Tests that need it skip with this reason (never silently).
 */
export function claudeCodeUnavailable(): string | undefined {
  const pkg = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  let bin: string;
  try {
    const sdk = createRequire(import.meta.url).resolve("@anthropic-ai/claude-agent-sdk");
    bin = createRequire(sdk).resolve(`${pkg}/claude`);
  } catch (e) {
    return `Claude Code (${pkg}) is not installed: ${(e as Error).message}`;
  }
  try {
    execFileSync(bin, ["--version"], { timeout: 15_000, stdio: "pipe" });
    return undefined;
  } catch (e) {
    return `Claude Code (${bin}) cannot start on this machine: ${(e as Error).message}`;
  }
}

const workspaces: string[] = [];

/** A fresh agent workspace in the temp directory; removeWorkspaces() deletes them all. */
export function tempWorkspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-agent-ws-"));
  workspaces.push(dir);
  return dir;
}

export function removeWorkspaces(): void {
  for (const dir of workspaces.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Drains a session's events in the background; `until` waits for one (no fixed sleeps). */
export function collect(session: AgentSession) {
  const events: RuntimeEvent[] = [];
  const waiters: { pred: (e: RuntimeEvent) => boolean; resolve: (e: RuntimeEvent) => void }[] = [];
  const done = (async () => {
    for await (const e of session.events) {
      events.push(e);
      for (const w of [...waiters]) {
        if (!w.pred(e)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  })();
  return {
    events,
    /** Resolves once the event stream has ended (after `exit`). */
    done,
    /** The first event from index `from` on that satisfies `pred`, already seen or coming. */
    until<T extends RuntimeEvent>(
      pred: (e: RuntimeEvent) => e is T,
      from = 0,
      timeoutMs = 30_000,
    ): Promise<T> {
      const seen = events.slice(from).find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event within ${timeoutMs} ms: ${JSON.stringify(events)}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e as T);
          },
        });
      });
    },
  };
}

export const is =
  <K extends RuntimeEvent["type"]>(
    type: K,
    test: (e: Extract<RuntimeEvent, { type: K }>) => boolean = () => true,
  ) =>
  (e: RuntimeEvent): e is Extract<RuntimeEvent, { type: K }> =>
    e.type === type && test(e as Extract<RuntimeEvent, { type: K }>);
