import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentJob } from "@/lib/domain/runner/launch-jobs";

/**
 * File secrets of one launch (issue 14, docs/secrets.md "Files"): each is written, byte for byte, to a file
 * of mode 0600 named after the secret in a fresh private directory (mode 0700, under the OS temp dir, not
 * in the agent's workspace, so it is never committed with the agent's work), and $NAME is set to that
 * file's path. `remove()` deletes the directory when the launch ends. Returns the job with those variables
 * added to its environment (its own variables win, as for text secrets).
 */
export function writeSecretFiles(job: AgentJob): { job: AgentJob; remove: () => void } {
  const files = Object.entries(job.secret_files ?? {});
  if (files.length === 0) return { job, remove: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-secrets-a${job.agent_id}-l${job.launch}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.chmodSync(dir, 0o700);
    const env: Record<string, string> = {};
    for (const [name, base64] of files) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.from(base64, "base64"), { mode: 0o600, flag: "wx" });
      env[name] = file;
    }
    const { secret_files: _, ...rest } = job;
    return { job: { ...rest, env: { ...env, ...job.env } }, remove };
  } catch (e) {
    remove();
    throw e;
  }
}
