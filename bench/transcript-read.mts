// Transcript read benchmark (issue 11 §4): one goal with --agents agents and --events runtime events spread
// over them (plus one "quiet" agent with 5 events at the very start), then times the owner's
// `GET /api/goals/:id/agents/:agentId/transcript` (the newest page, 200 entries) for a busy and for the
// quiet agent, and the live stream's catch-up read (`?after=<newest seq>`), against a real production server.
//   npm run build && npx tsx bench/transcript-read.mts -- [--agents 30] [--events 100000] [--requests 30] [--provider sqlite|postgres]
// The read filters the goal's events by agent on the (goalId, seq) index: this measures what that costs.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startServer } from "../tests/helpers/server";

const { values: opt } = parseArgs({
  options: {
    agents: { type: "string", default: "30" },
    events: { type: "string", default: "100000" },
    requests: { type: "string", default: "30" },
    provider: { type: "string", default: "sqlite" },
  },
});
const AGENTS = Number(opt.agents);
const EVENTS = Number(opt.events);
const REQUESTS = Number(opt.requests);
const NAMES = ["tool_called", "tool_result", "agent_text", "turn.usage", "send_message"];

const round = (x: number) => Math.round(x * 10) / 10;
function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
  return { n: s.length, p50: round(pct(50)), p95: round(pct(95)), max: round(s.at(-1) ?? Number.NaN) };
}

const server = await startServer({ provider: opt.provider === "postgres" ? "postgres" : "sqlite" });
try {
  const token = await server.ownerToken("bench@example.com");
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  const { write, read, disconnect } = await import("../lib/db");
  const { createGoal } = await import("../lib/domain/goals/create-goal");
  const ownerId = (await read(({ db }) => db.user.findUnique({ where: { email: "bench@example.com" } })))?.id;
  if (!ownerId) throw new Error("no owner");
  const goal = await createGoal(ownerId, {
    title: "Transcript bench",
    description: "Many events, many agents.",
  });
  const agents: number[] = [];
  for (let i = 0; i < AGENTS; i++) {
    agents.push((await server.createAgent({ goal: goal.goal_id, name: `a${i}` })).agent_id);
  }
  const quiet = agents[0] as number;
  const busy = agents[1] as number;
  const seedStart = performance.now();
  let seq = (await read(({ db }) => db.goal.findUniqueOrThrow({ where: { id: goal.goal_id } }))).eventSeq;
  const data = JSON.stringify({ tool_use_id: "tu", tool: "Bash", input: '{"command":"ls -la"}' });
  const BATCH = 2000;
  for (let done = 0; done < EVENTS; done += BATCH) {
    await write(async ({ sql }) => {
      for (let i = done; i < Math.min(EVENTS, done + BATCH); i++) {
        seq++;
        // The quiet agent's 5 events come first; every other event goes round-robin to the others.
        const agent = i < 5 ? quiet : (agents[1 + (i % (AGENTS - 1))] as number);
        await sql.run(
          `INSERT INTO "Event" ("goalId", seq, ts, name, "agentId", "teamId", "dataJson") VALUES (?, ?, ?, ?, ?, NULL, ?)`,
          goal.goal_id,
          seq,
          new Date(),
          NAMES[i % NAMES.length],
          agent,
          data,
        );
      }
    });
  }
  await write(({ sql }) => sql.run(`UPDATE "Goal" SET "eventSeq" = ? WHERE id = ?`, seq, goal.goal_id));
  console.log(
    `seeded ${EVENTS} events over ${AGENTS} agents in ${round((performance.now() - seedStart) / 1000)} s`,
  );
  await disconnect();

  const time = async (path: string) => {
    const ms: number[] = [];
    for (let i = 0; i < REQUESTS + 3; i++) {
      const t0 = performance.now();
      const r = await server.fetch(path, { headers: { authorization: `Bearer ${token}` } });
      const body = (await r.json()) as { entries?: unknown[] };
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      if (i >= 3) ms.push(performance.now() - t0);
      if (i === 0) console.log(`  ${path}: ${body.entries?.length} entries`);
    }
    return summary(ms);
  };
  const base = `/api/goals/${goal.goal_id}/agents`;
  const results = {
    busy_newest_page: await time(`${base}/${busy}/transcript`),
    quiet_newest_page: await time(`${base}/${quiet}/transcript`),
    busy_after_newest: await time(`${base}/${busy}/transcript?after=${seq}`),
  };
  console.log(
    JSON.stringify({ provider: opt.provider, agents: AGENTS, events: EVENTS, ...results }, null, 2),
  );
} finally {
  await server.stop();
}
