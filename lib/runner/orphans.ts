import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { logger } from "@/lib/log";

/**
 * Agent programs never outlive their runner (issue 11, docs/runner.md "Orphans"). A runner killed with -9
 * cannot end its agents itself, and their keys are revoked only when another runner relaunches them, so:
 *
 * - the runner records each agent program it starts (pid, whether it leads its own process group, and its
 *   start time, so a reused pid is never mistaken for it) in `<workDir>/.runner/<runner pid>-<random>.json`;
 * - a small **reaper** process started with the runner holds a pipe from it: when the pipe closes (the
 *   runner died, however), the reaper kills what the record still lists, deletes the record and exits;
 * - a runner starting on the same work directory kills the leftovers of every record whose runner is gone
 *   (the reaper was killed too, or the machine rebooted) before it takes any job.
 */

/** A process's start time (clock ticks since boot, Linux `/proc/<pid>/stat`), or null where unknown. */
export function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

type Child = { pid: number; group: boolean; start: string | null };
type Record_ = { runner: { pid: number; start: string | null }; children: Record<string, Child> };

/**
 * Kill the processes a record lists that are still the ones it recorded. Also the body of the reaper
 * (REAPER below is the same logic, standalone): keep them in step.
 */
function killListed(children: Record<string, Child>): number {
  let killed = 0;
  for (const c of Object.values(children)) {
    const now = startTime(c.pid);
    const same = alive(c.pid) && (c.start === null || now === null || now === c.start);
    try {
      if (c.group && (same || !alive(c.pid))) process.kill(-c.pid, "SIGKILL");
      else if (same) process.kill(c.pid, "SIGKILL");
      else continue;
      killed++;
    } catch {}
  }
  return killed;
}

/** The reaper: waits for its stdin (a pipe from the runner) to close, then does what killListed does. */
const REAPER = `
const fs = require("node:fs");
const file = process.argv[1];
const startTime = (pid) => { try { const s = fs.readFileSync("/proc/" + pid + "/stat", "utf8"); return s.slice(s.lastIndexOf(")") + 2).split(" ")[19] ?? null; } catch { return null; } };
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; } };
const reap = () => {
  try {
    const rec = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const c of Object.values(rec.children || {})) {
      const now = startTime(c.pid);
      const same = alive(c.pid) && (c.start === null || now === null || now === c.start);
      try { if (c.group && (same || !alive(c.pid))) process.kill(-c.pid, "SIGKILL"); else if (same) process.kill(c.pid, "SIGKILL"); } catch {}
    }
    fs.rmSync(file, { force: true });
  } catch {}
  process.exit(0);
};
process.stdin.on("end", reap);
process.stdin.on("close", reap);
process.stdin.on("error", reap);
process.stdin.resume();
`;

export class ChildRecord {
  private readonly file: string;
  private readonly rec: Record_;
  private reaper: ReturnType<typeof spawn> | undefined;

  constructor(workDir: string) {
    const dir = path.join(workDir, ".runner");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // One record per Runner: a process may hold several (the runner's pid is in the record).
    this.file = path.join(dir, `${process.pid}-${randomBytes(4).toString("hex")}.json`);
    this.rec = { runner: { pid: process.pid, start: startTime(process.pid) }, children: {} };
  }

  /** Kill the leftovers of runners that died on this work directory, then start this runner's reaper. */
  start(): void {
    const dir = path.dirname(this.file);
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith(".json")) continue;
      const file = path.join(dir, name);
      if (file === this.file) continue;
      let rec: Record_;
      try {
        rec = JSON.parse(fs.readFileSync(file, "utf8")) as Record_;
      } catch {
        continue; // being written
      }
      const runnerAlive =
        alive(rec.runner.pid) &&
        (rec.runner.start === null || startTime(rec.runner.pid) === rec.runner.start);
      if (runnerAlive) continue;
      const killed = killListed(rec.children ?? {});
      fs.rmSync(file, { force: true });
      if (killed > 0) logger.warn({ killed, record: name }, "killed agent programs left by a dead runner");
    }
    this.write();
    this.reaper = spawn(process.execPath, ["-e", REAPER, this.file], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    this.reaper.unref();
    (this.reaper.stdin as Socket | null)?.unref();
    this.reaper.on("error", (e) => logger.warn({ err: e }, "the orphan reaper did not start"));
  }

  add(agentId: number, p: { pid: number; group: boolean }): void {
    this.rec.children[String(agentId)] = { ...p, start: startTime(p.pid) };
    this.write();
  }

  remove(agentId: number): void {
    if (!(String(agentId) in this.rec.children)) return;
    delete this.rec.children[String(agentId)];
    this.write();
  }

  /** A clean stop: nothing left to reap; the reaper removes the record and exits. */
  close(): void {
    this.rec.children = {};
    this.write();
    this.reaper?.stdin?.end();
  }

  private write(): void {
    try {
      const tmp = `${this.file}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(this.rec), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    } catch (e) {
      logger.warn({ err: e }, "the runner's child record was not written");
    }
  }
}
