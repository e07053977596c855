// `npm run runner -- --hub URL --token T`: a runner process (docs/runner.md). It talks to the hub over HTTP
// only, with a runner token; it never opens the database (tests/unit/runner-no-db.test.ts).
import { Command, InvalidArgumentError } from "commander";
import { runUntilSignalled } from "./start";

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive integer");
  return n;
};

const o = new Command()
  .name("runner")
  .description("Launch and watch agents for a Switchboard hub")
  .option("--hub <url>", "the hub's origin (SWITCHBOARD_RUNNER_HUB)")
  .option("--token <token>", "a runner token sb_runner_… (SWITCHBOARD_RUNNER_TOKEN)")
  .option("--max-agents <n>", "agents run at once (SWITCHBOARD_RUNNER_MAX_AGENTS)", positiveInt)
  .option("--work-dir <dir>", "where agent workspaces are made (SWITCHBOARD_RUNNER_WORK_DIR)")
  .option("--name <name>", "this runner's name on the hub (SWITCHBOARD_RUNNER_ID)")
  .parse(process.argv)
  .opts<{ hub?: string; token?: string; maxAgents?: number; workDir?: string; name?: string }>();

try {
  await runUntilSignalled(o);
  process.exit(0);
} catch (e) {
  process.stderr.write(`runner: ${(e as Error).message}\n`);
  process.exit(1);
}
