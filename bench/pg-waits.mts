// What PostgreSQL's backends of the bench databases wait on, sampled from pg_stat_activity while a bench
// runs beside it (issue 15):
//   npx tsx bench/pg-waits.mts [--seconds 20] [--every-ms 20]   # start it, then the bench's messaging phase
// Prints, per state and wait event, the share of samples of the backends of databases named sb_test_%.
import { parseArgs } from "node:util";
import pg from "pg";

const { values: opt } = parseArgs({
  options: { seconds: { type: "string", default: "20" }, "every-ms": { type: "string", default: "20" } },
});
const c = new pg.Client({
  connectionString: process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
});
await c.connect();
const tally = new Map<string, number>();
let samples = 0;
const end = Date.now() + Number(opt.seconds) * 1000;
while (Date.now() < end) {
  const r = await c.query<{ k: string; n: number }>(
    `SELECT state || ' / ' || COALESCE(wait_event_type || ':' || wait_event, 'on CPU') AS k, count(*)::int AS n
     FROM pg_stat_activity WHERE datname LIKE 'sb_test_%' AND state <> 'idle' AND pid <> pg_backend_pid()
     GROUP BY 1`,
  );
  for (const row of r.rows) tally.set(row.k, (tally.get(row.k) ?? 0) + row.n);
  samples++;
  await new Promise((r) => setTimeout(r, Number(opt["every-ms"])));
}
await c.end();
const total = [...tally.values()].reduce((a, b) => a + b, 0);
console.log(`${samples} samples, ${(total / samples).toFixed(1)} busy backends on average`);
for (const [k, n] of [...tally].sort((a, b) => b[1] - a[1]))
  console.log(
    `${((100 * n) / total).toFixed(1).padStart(5)} %  ${(n / samples).toFixed(2).padStart(5)} avg  ${k}`,
  );
