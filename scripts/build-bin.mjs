#!/usr/bin/env node
// `npm run build` (after `next build`): compiles the CLI, the server entry and the runner to JavaScript in
// dist/, so `npx switchboard …`, `npm start` and `npm run runner` start without loading TypeScript.
// Our own code (and the `@/…` paths) is bundled; packages in node_modules stay imports. dist/build.json
// lists the source files of the build: bin/launch.mjs runs the sources through tsx instead when one of
// them is newer than the build, so a stale dist/ never runs.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist");
const startedAt = Date.now();

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: "cli/main.ts", server: "server/main.ts", runner: "lib/runner/main.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});

const sources = Object.keys(result.metafile.inputs).sort();
fs.writeFileSync(
  path.join(outdir, "build.json"),
  `${JSON.stringify({ built_at: startedAt, sources }, null, 1)}\n`,
);
process.stderr.write(`build-bin: dist/{cli,server,runner}.mjs from ${sources.length} source files\n`);
