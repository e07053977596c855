import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CommandJob } from "@/lib/domain/tasks/command-jobs";
import { dataDir, hostVariables } from "@/lib/env";

const OUTPUT_TAIL = 2000;
/** Variables of the runner's own environment a command may see; nothing else (no DATABASE_URL, no secrets). */
const PASSED_THROUGH = ["PATH", "LANG", "LC_ALL", "TZ"];
/** The unprivileged account a root runner runs verification commands as (`nobody`). */
const NOBODY = 65534;

/** The task's context as environment variables of the verification command. */
export function taskEnvironment(job: CommandJob): Record<string, string> {
  return {
    ...hostVariables(PASSED_THROUGH),
    SWITCHBOARD_TASK_ID: String(job.task_id),
    SWITCHBOARD_GOAL_ID: String(job.goal_id),
    SWITCHBOARD_TASK_TITLE: job.title,
    SWITCHBOARD_TASK_DESCRIPTION: job.description,
    SWITCHBOARD_TASK_ACCEPTANCE_CRITERIA: job.acceptance_criteria ?? "",
    SWITCHBOARD_TASK_BILLING_CODE: job.billing_code ?? "",
    SWITCHBOARD_TASK_SUMMARY: job.summary ?? "",
    SWITCHBOARD_TASK_ARTIFACTS: JSON.stringify(job.artifacts),
    SWITCHBOARD_TASK_ANCESTRY: job.ancestry,
    SWITCHBOARD_TASK_ASSIGNEE_ID: job.assignee_id === null ? "" : String(job.assignee_id),
  };
}

/**
 * Where a verification runs (issue 16 §1, docs/goals.md "Command verification"): the task's workspace — the
 * assignee's agent workspace under the runner's work directory (`<workDir>/goal-<g>/agent-<a>`, where its
 * artifacts are), or `<workDir>/goal-<g>/verify` — unless the operator names a base (SWITCHBOARD_WORKSPACE).
 */
export function taskWorkspace(job: CommandJob, workDir: string, base?: string): string {
  if (base) return path.resolve(base);
  const who = job.assignee_id === null ? "verify" : `agent-${job.assignee_id}`;
  return path.resolve(workDir, `goal-${job.goal_id}`, who);
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** Why this command may not run here, if it may not: the hub's data directory in reach, or `cwd` outside. */
function refusal(workspace: string, cwd: string): string | undefined {
  const data = dataDir();
  if (inside(workspace, data) || inside(data, workspace)) {
    return `refused: the workspace ${workspace} contains or is inside the hub's data directory`;
  }
  if (!fs.existsSync(cwd) || !fs.statSync(cwd).isDirectory()) {
    return `could not start: working directory ${cwd} does not exist`;
  }
  // Symbolic links resolved: a link inside the workspace pointing out of it is outside.
  if (!inside(fs.realpathSync(workspace), fs.realpathSync(cwd))) {
    return `refused: working directory ${cwd} is outside the task's workspace ${workspace}`;
  }
  return undefined;
}

/**
 * A root runner runs the command as `nobody`: it can read the task's workspace (made traversable, its
 * `.switchboard` kept 0700) but not the hub's data directory (0700), other agents' private files or the
 * runner's own environment; it writes to its own temporary directory ($HOME, $TMPDIR), removed afterwards.
 */
function unprivileged(
  workspace: string,
  workDir: string | undefined,
): { uid?: number; gid?: number; home: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-verify-"));
  if (process.getuid?.() !== 0) return { home };
  fs.chownSync(home, NOBODY, NOBODY);
  // Only the runner's own directories are opened (workspace up to the work directory); nothing above it.
  if (workDir && inside(workDir, workspace)) {
    for (let dir = workspace; inside(workDir, dir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode & 0o777;
      if ((mode & 0o005) !== 0o005) fs.chmodSync(dir, mode | 0o005);
      if (dir === workDir) break;
    }
  }
  const own = path.join(workspace, ".switchboard");
  if (fs.existsSync(own)) fs.chmodSync(own, 0o700);
  return { uid: NOBODY, gid: NOBODY, home };
}

/**
 * Run a job's command with `sh -c` in `cwd` (relative to, and confined to, `workspace`), the task context in
 * its environment and nothing else of the runner's, as `nobody` when the runner is root, killed (its whole
 * process group) after `timeout_sec`. Exit 0 approves; anything else — non-zero exit, a signal, a timeout, a
 * command that cannot start or may not run here — rejects with the reason.
 */
export function runVerification(
  job: CommandJob,
  workspace: string,
  signal?: AbortSignal,
  workDir?: string,
): Promise<{ approve: boolean; reason: string }> {
  fs.mkdirSync(workspace, { recursive: true });
  const cwd = path.resolve(workspace, job.cwd ?? ".");
  const refused = refusal(workspace, cwd);
  if (refused) return Promise.resolve({ approve: false, reason: refused });
  const user = unprivileged(workspace, workDir);
  return new Promise((resolve) => {
    let tail = "";
    const keep = (d: Buffer) => {
      tail = (tail + d.toString()).slice(-OUTPUT_TAIL);
    };
    const env: Record<string, string> = { ...taskEnvironment(job), HOME: user.home, TMPDIR: user.home };
    const child = spawn("/bin/sh", ["-c", job.cmd], {
      cwd,
      env: env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      ...(user.uid === undefined ? {} : { uid: user.uid, gid: user.gid }),
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, job.timeout_sec * 1000);
    const onAbort = () => killGroup();
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = (r: { approve: boolean; reason: string }) => {
      clearTimeout(timer);
      fs.rmSync(user.home, { recursive: true, force: true });
      signal?.removeEventListener("abort", onAbort);
      resolve(r);
    };
    child.on("error", (e) => done({ approve: false, reason: `could not start: ${e.message}` }));
    child.on("close", (code, sig) => {
      const output = tail.trim() ? `\n${tail.trim()}` : "";
      if (timedOut) return done({ approve: false, reason: `timed out after ${job.timeout_sec}s${output}` });
      if (sig) return done({ approve: false, reason: `crashed: killed by ${sig}${output}` });
      if (code === 0) return done({ approve: true, reason: `exit 0${output}` });
      done({ approve: false, reason: `exit code ${code}${output}` });
    });
  });
}
