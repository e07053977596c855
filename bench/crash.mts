// The long kill -9 run (issue 16 §5): `npm run crash -- [--db sqlite|postgres] [--kills 20] [--agents 32]
// [--seed N] [--min-ms 2000] [--max-ms 8000]`. The production server under load from N agents (send_message,
// read_inbox, claim_task, ask_user answered by the coordinator's answer_question), killed with SIGKILL at
// random moments and restarted on the same database; after each restart the database must hold every
// acknowledged write, and every write unit whole or not at all (tests/helpers/crash-load.ts). Prints the
// seed (replay with --seed) and a summary; exits 1 on any violation. Needs `npm run build`.
import { parseArgs } from "node:util";
import { runCrashLoad, summary } from "../tests/helpers/crash-load";

const { values: opt } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    kills: { type: "string", default: "20" },
    agents: { type: "string", default: "32" },
    seed: { type: "string" },
    "min-ms": { type: "string", default: "2000" },
    "max-ms": { type: "string", default: "8000" },
  },
});
if (opt.db !== "sqlite" && opt.db !== "postgres") throw new Error("--db sqlite|postgres");
const seed = Number(opt.seed ?? Math.floor(Math.random() * 2 ** 31));
process.stdout.write(
  `crash: ${opt.db}, ${opt.agents} agents, ${opt.kills} kills, seed ${seed} (replay: --seed ${seed})\n`,
);
const report = await runCrashLoad({
  provider: opt.db,
  agents: Number(opt.agents),
  kills: Number(opt.kills),
  seed,
  loadMs: [Number(opt["min-ms"]), Number(opt["max-ms"])],
  log: (l) => process.stdout.write(`${l}\n`),
});
process.stdout.write(`${summary(report)}\n`);
process.exit(report.violations.length ? 1 : 0);
