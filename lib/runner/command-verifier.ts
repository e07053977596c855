import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { CommandJob } from "@/lib/domain/tasks/command-jobs";
import { hostVariables } from "@/lib/env";

const OUTPUT_TAIL = 2000;
/** Variables of the runner's own environment a command may see; nothing else (no DATABASE_URL, no secrets). */
const PASSED_THROUGH = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TZ"];

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
 * Run a job's command with `sh -c` in `cwd` (relative to `workspace`), the task context in its
 * environment, killed (its whole process group) after `timeout_sec`. Exit 0 approves; anything else —
 * non-zero exit, a signal, a timeout, a command that cannot start — rejects with the reason.
 */
export function runVerification(
  job: CommandJob,
  workspace: string,
  signal?: AbortSignal,
): Promise<{ approve: boolean; reason: string }> {
  const cwd = path.resolve(workspace, job.cwd ?? ".");
  if (!fs.existsSync(cwd) || !fs.statSync(cwd).isDirectory())
    return Promise.resolve({
      approve: false,
      reason: `could not start: working directory ${cwd} does not exist`,
    });
  return new Promise((resolve) => {
    let tail = "";
    const keep = (d: Buffer) => {
      tail = (tail + d.toString()).slice(-OUTPUT_TAIL);
    };
    const child = spawn("/bin/sh", ["-c", job.cmd], {
      cwd,
      env: taskEnvironment(job) as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
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
