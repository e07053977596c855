// File secrets at launch (lib/runner/secret-files.ts): each written byte for byte to a 0600 file in a fresh
// 0700 directory outside the workspace, $NAME = its path, the job's own variables win, and remove() deletes it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { AgentJob } from "@/lib/domain/runner/launch-jobs";
import { writeSecretFiles } from "@/lib/runner/secret-files";

const job = (over: Partial<AgentJob>): AgentJob => ({
  kind: "agent",
  agent_id: 7,
  goal_id: 1,
  launch: 3,
  name: "a",
  role: "agent",
  runtime: "command",
  command: null,
  model: null,
  system_prompt: "",
  env: { TEXT_KEY: "t" },
  resume_session_id: null,
  permission_mode: null,
  allowed_tools: [],
  lease_s: 30,
  ...over,
});

test("file secrets become 0600 files in a private directory; $NAME is the path; remove() deletes them", () => {
  const bytes = Buffer.from([0, 1, 2, 255, 254, 0, 10]);
  const { job: out, remove } = writeSecretFiles(
    job({
      secret_files: { KUBECONFIG: bytes.toString("base64"), SWITCHBOARD_API_KEY: "eA==" },
      env: { SWITCHBOARD_API_KEY: "k" },
    }),
  );
  const file = out.env.KUBECONFIG as string;
  try {
    assert.ok(path.isAbsolute(file));
    assert.deepEqual(fs.readFileSync(file), bytes);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.equal(path.basename(file), "KUBECONFIG");
    assert.equal(out.env.SWITCHBOARD_API_KEY, "k", "the job's own variable wins");
    assert.equal(out.secret_files, undefined, "the bytes do not travel further");
  } finally {
    remove();
  }
  assert.ok(!fs.existsSync(path.dirname(file)));
});

test("no file secrets: the job unchanged, nothing written", () => {
  const j = job({});
  const { job: out, remove } = writeSecretFiles(j);
  assert.equal(out, j);
  remove();
});
