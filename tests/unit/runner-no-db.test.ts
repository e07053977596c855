// The runner process talks to the hub over HTTP only (issue 11, docs/runner.md): its bundle, built as
// `npm run build` builds dist/runner.mjs, loads nothing of lib/db, lib/domain, lib/auth or lib/mcp, nor a
// database driver. Type-only imports (the protocol's job types) are erased and do not count.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "../..");

for (const entry of ["lib/runner/main.ts", "lib/runner/start.ts"]) {
  test(`${entry} never loads the database`, async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.includes("lib/runner/runner.ts"), inputs.join("\n"));
    const forbidden = inputs.filter((f) => /^lib\/(db|domain|auth|mcp)\//.test(f));
    assert.deepEqual(forbidden, []);
    const packages = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    for (const p of [
      "@prisma/client",
      "better-sqlite3",
      "pg",
      "@prisma/adapter-pg",
      "@prisma/adapter-better-sqlite3",
    ]) {
      assert.ok(!packages.includes(p), `imports ${p}`);
    }
  });
}
