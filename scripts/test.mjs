#!/usr/bin/env node
// Runs every check and test: type-check, lint, production build, unit tests, the in-process tool tests
// (tests/in-process: no build, no server) and the integration tests (tests/integration: real servers over
// HTTP) on SQLite and on PostgreSQL, and the Playwright browser flows. Ends with one line
// "N passed, N failed, N skipped". docs/testing.md describes the layout.
// Environment: TEST_SKIP_BUILD=1 reuses .next; TEST_ONLY=unit|in-process|sqlite|postgres|e2e runs one suite;
// TEST_STEP_TIMEOUT_S (default 1500) ends a step that runs longer: its process group is killed, what it printed so far is
// shown, and the step fails. Each node test also has a time limit (--test-timeout), so one hung test fails by name instead
// of holding the whole run.
//
// On the 2-core CI machine the steps that need no build (type-check, lint, unit, in-process) run beside
// `npm run build` (Next plus the compiled CLI, server and runner) and the integration suites that follow it; their output is printed when each finishes.
import { spawn } from "node:child_process";
import fs from "node:fs";

const only = process.env.TEST_ONLY;
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const timings = [];

/** Run a step; `buffered` collects its output and prints it in one piece when it ends (parallel steps). */
const stepTimeoutMs = Number(process.env.TEST_STEP_TIMEOUT_S ?? 1500) * 1000;

function run(name, cmd, args, env = {}, { buffered = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const banner = `\n=== ${name}: ${cmd} ${args.join(" ")}\n`;
    process.stdout.write(buffered ? `=== ${name}: started (output follows when it ends)\n` : banner);
    // Its own process group, so a step that outlives its time limit is ended with everything it started.
    const child = spawn(cmd, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", buffered ? "pipe" : "inherit"],
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stdout.write(`=== ${name}: still running after ${stepTimeoutMs / 1000} s; ending it\n`);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, stepTimeoutMs);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (!buffered) process.stdout.write(d);
    });
    child.stderr?.on("data", (d) => {
      err += d;
    });
    // A process the step left behind may hold its output pipes open: once the step itself has exited, end what is
    // left of its process group, give its output 10 s to end, then stop reading so the step still finishes.
    child.on("exit", () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr?.destroy();
      }, 10_000).unref();
    });
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      const status = timedOut ? "timed out" : exitCode === 0 ? "ok" : `exit ${exitCode}`;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (buffered) {
        process.stdout.write(banner + out);
        if (err) process.stderr.write(err);
      }
      process.stdout.write(`=== ${name}: ${status} in ${seconds} s\n`);
      timings.push(`${name} ${seconds} s`);
      if (status !== "ok") failures.push(`${name} (${status})`);
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

async function nodeTests(name, dir, env, opts = {}) {
  const args = ["--import", "tsx", "--test", "--test-reporter=spec", "--test-force-exit"];
  args.push(`--test-timeout=${opts.testTimeoutMs ?? 300_000}`);
  if (opts.concurrency) args.push(`--test-concurrency=${opts.concurrency}`);
  const out = await run(name, process.execPath, [...args, ...testsIn(dir)], env, opts);
  totals.passed += count(out, /^ℹ pass (\d+)/gm);
  totals.failed += count(out, /^ℹ fail (\d+)/gm) + count(out, /^ℹ cancelled (\d+)/gm);
  totals.skipped += count(out, /^ℹ skipped (\d+)/gm);
}

const wants = (suite) => !only || only === suite;
const needsBuild = wants("sqlite") || wants("postgres") || wants("e2e");
const started = Date.now();

// Everything that needs no build, one step after another, beside the build.
const withoutBuild = (async () => {
  const buffered = needsBuild;
  if (!only) {
    await run("typecheck", "npx", ["tsc", "--noEmit"], {}, { buffered });
    await run("lint", "npx", ["biome", "check", "."], {}, { buffered });
  }
  if (wants("unit")) await nodeTests("unit", "tests/unit", {}, { buffered });
  if (wants("in-process")) {
    for (const db of ["sqlite", "postgres"])
      await nodeTests(`in-process (${db})`, "tests/in-process", { TEST_DATABASE: db }, { buffered });
  }
})();
const build =
  needsBuild && !process.env.TEST_SKIP_BUILD ? run("build", "npm", ["run", "build"]) : Promise.resolve();
// What needs the build starts as soon as it is there, while the in-process suites may still run.
const withBuild = (async () => {
  await build;
  if (failures.some((f) => f.startsWith("build"))) return;
  if (wants("sqlite"))
    await nodeTests("integration (sqlite)", "tests/integration", { TEST_DATABASE: "sqlite" });
  if (wants("postgres"))
    await nodeTests("integration (postgres)", "tests/integration", { TEST_DATABASE: "postgres" });
  if (wants("e2e")) {
    const out = await run("e2e (chromium)", "npx", ["playwright", "test"]);
    totals.passed += count(out, /^\s+(\d+) passed/gm);
    totals.failed += count(out, /^\s+(\d+) failed/gm) + count(out, /^\s+(\d+) flaky/gm);
    totals.skipped += count(out, /^\s+(\d+) skipped/gm);
  }
})();
await Promise.all([withoutBuild, withBuild]);

process.stdout.write(
  `\nSteps: ${timings.join(", ")}; total ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
if (failures.length) process.stdout.write(`Failed steps: ${failures.join(", ")}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failures.length || totals.failed ? 1 : 0);
