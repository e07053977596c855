// `npm run runner`: a worker process outside the web server (the seed of the agent runner). It takes
// command-verification jobs from the database, runs each command and records the verdict.
import os from "node:os";
import { disconnect } from "@/lib/db";
import { claimCommandJob, reportCommandVerdict } from "@/lib/domain/tasks/command-jobs";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { runVerification } from "./command-verifier";

const runnerId = env().SWITCHBOARD_RUNNER_ID ?? `${os.hostname()}-${process.pid}`;
const pollMs = env().SWITCHBOARD_RUNNER_POLL_MS;
const concurrency = env().SWITCHBOARD_RUNNER_CONCURRENCY;
const workspace = env().SWITCHBOARD_WORKSPACE ?? process.cwd();
const stop = new AbortController();

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(t);
      stop.signal.removeEventListener("abort", wake);
      resolve();
    };
    const t = setTimeout(wake, ms);
    stop.signal.addEventListener("abort", wake, { once: true });
  });

async function worker(n: number) {
  while (!stop.signal.aborted) {
    try {
      const job = await claimCommandJob(runnerId);
      if (!job) {
        await sleep(pollMs);
        continue;
      }
      logger.info({ runner: runnerId, worker: n, task: job.task_id, cmd: job.cmd }, "verifying");
      const verdict = await runVerification(job, workspace, stop.signal);
      if (stop.signal.aborted) break; // interrupted: the lease expires and another runner takes the job
      const recorded = await reportCommandVerdict(runnerId, job.task_id, verdict);
      logger.info({ runner: runnerId, task: job.task_id, approve: verdict.approve, recorded }, "verdict");
    } catch (e) {
      logger.error({ err: e, runner: runnerId }, "runner iteration failed");
      await sleep(pollMs);
    }
  }
}

for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => stop.abort());
logger.info({ runner: runnerId, concurrency, workspace }, "runner started");
await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
await disconnect();
