#!/usr/bin/env node
// Runs every check and test: type-check, lint, production build, unit tests, integration tests against
// SQLite and against PostgreSQL (real `next start` servers driven by the MCP SDK client), and the
// Playwright browser flows. Ends with one line "N passed, N failed".
// Environment: TEST_SKIP_BUILD=1 reuses .next; TEST_ONLY=unit|sqlite|postgres|e2e runs one suite.
import { spawn } from "node:child_process";
import fs from "node:fs";

const only = process.env.TEST_ONLY;
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(name, cmd, args, env = {}) {
  return new Promise((resolve) => {
    process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(" ")}\n`);
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on("close", (code) => {
      if (code !== 0) failures.push(`${name} (exit ${code})`);
      resolve(out);
    });
  });
}

const count = (out, re) => [...out.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);

// Node 20's --test takes no globs: list the directory's *.test.ts files.
const testsIn = (dir) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => `${dir}/${f}`);

async function nodeTests(name, dir, env) {
  const out = await run(
    name,
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=spec", ...testsIn(dir)],
    env,
  );
  totals.passed += count(out, /^ℹ pass (\d+)/gm);
  totals.failed += count(out, /^ℹ fail (\d+)/gm) + count(out, /^ℹ cancelled (\d+)/gm);
  totals.skipped += count(out, /^ℹ skipped (\d+)/gm);
}

if (!only) {
  await run("typecheck", "npx", ["tsc", "--noEmit"]);
  await run("lint", "npx", ["biome", "check", "."]);
}
if (!process.env.TEST_SKIP_BUILD && only !== "unit") await run("build", "npx", ["next", "build"]);
if (!only || only === "unit") await nodeTests("unit", "tests/unit");
if (!only || only === "sqlite")
  await nodeTests("integration (sqlite)", "tests/integration", { TEST_DATABASE: "sqlite" });
if (!only || only === "postgres")
  await nodeTests("integration (postgres)", "tests/integration", { TEST_DATABASE: "postgres" });
if (!only || only === "e2e") {
  const out = await run("e2e (chromium)", "npx", ["playwright", "test"]);
  totals.passed += count(out, /^\s+(\d+) passed/gm);
  totals.failed += count(out, /^\s+(\d+) failed/gm) + count(out, /^\s+(\d+) flaky/gm);
  totals.skipped += count(out, /^\s+(\d+) skipped/gm);
}

if (failures.length) process.stdout.write(`\nFailed steps: ${failures.join(", ")}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failures.length || totals.failed ? 1 : 0);
