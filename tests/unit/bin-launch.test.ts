// bin/launch.mjs never runs a stale build: dist/ is used only when it exists and no source file of it changed.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

type StaleBuild = (name: string, dir: string) => string | undefined;
const launchPath = path.resolve(import.meta.dirname, "../../bin/launch.mjs");
const { staleBuild } = (await import(launchPath)) as { staleBuild: StaleBuild };

function fixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-launch-"));
  const write = (file: string, text = "") => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const setMtime = (file: string, ms: number) => fs.utimesSync(path.join(dir, file), ms / 1000, ms / 1000);
  return { dir, write, setMtime, [Symbol.dispose]: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

test("no build: the sources run", () => {
  using f = fixture();
  assert.equal(staleBuild("cli", f.dir), "no build in dist/");
});

test("a build newer than every source is used; a changed, removed or missing file makes it stale", () => {
  using f = fixture();
  const builtAt = Date.now() - 60_000;
  f.write("cli/main.ts");
  f.write("lib/env.ts");
  f.setMtime("cli/main.ts", builtAt - 5_000);
  f.setMtime("lib/env.ts", builtAt - 5_000);
  f.write("dist/build.json", JSON.stringify({ built_at: builtAt, sources: ["cli/main.ts", "lib/env.ts"] }));
  assert.equal(staleBuild("cli", f.dir), "no dist/cli.mjs");
  f.write("dist/cli.mjs");
  assert.equal(staleBuild("cli", f.dir), undefined);

  f.setMtime("lib/env.ts", builtAt + 1_000);
  assert.equal(staleBuild("cli", f.dir), "lib/env.ts changed after the last build");

  f.setMtime("lib/env.ts", builtAt - 5_000);
  fs.rmSync(path.join(f.dir, "cli/main.ts"));
  assert.equal(staleBuild("cli", f.dir), "cli/main.ts was removed after the last build");
});
