import os from "node:os";
import path from "node:path";
import { dataDir, env } from "@/lib/env";
import { logger } from "@/lib/log";
import { Runner } from "./runner";
import { RUNTIMES } from "./runtimes";

export type RunnerFlags = {
  hub?: string;
  token?: string;
  maxAgents?: number;
  workDir?: string;
  name?: string;
};

/**
 * A runner from flags, then the environment (docs/runner.md). Refuses a work directory inside the hub's
 * data directory: agents never write where the hub keeps its secrets and database.
 */
export function runnerFromFlags(flags: RunnerFlags): Runner {
  const e = env();
  const hub = flags.hub ?? e.SWITCHBOARD_RUNNER_HUB;
  const token = flags.token ?? e.SWITCHBOARD_RUNNER_TOKEN;
  if (!hub) throw new Error("no hub: pass --hub URL or set SWITCHBOARD_RUNNER_HUB");
  if (!token) throw new Error("no runner token: pass --token T or set SWITCHBOARD_RUNNER_TOKEN");
  const workDir = path.resolve(flags.workDir ?? e.SWITCHBOARD_RUNNER_WORK_DIR);
  const data = dataDir();
  if (workDir === data || workDir.startsWith(`${data}${path.sep}`)) {
    throw new Error(`the runner's work directory ${workDir} is inside the hub's data directory ${data}`);
  }
  return new Runner({
    hub,
    token,
    instance: flags.name ?? e.SWITCHBOARD_RUNNER_ID ?? `${os.hostname()}-${process.pid}`,
    maxAgents: flags.maxAgents ?? e.SWITCHBOARD_RUNNER_MAX_AGENTS,
    verifyConcurrency: e.SWITCHBOARD_RUNNER_CONCURRENCY,
    workDir,
    verifyWorkspace: e.SWITCHBOARD_WORKSPACE,
    runtimes: RUNTIMES,
    minuteMs: e.SWITCHBOARD_RUNNER_MINUTE_MS,
  });
}

/** Run until SIGINT/SIGTERM, then end the agents cleanly (they go back to the hub's queue). */
export async function runUntilSignalled(flags: RunnerFlags): Promise<void> {
  const runner = runnerFromFlags(flags).start();
  await new Promise<void>((resolve) => {
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => resolve());
  });
  logger.info({}, "runner stopping");
  await runner.stop();
}
