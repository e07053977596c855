// Register N agents of a goal in one process (the CLI pays ~1 s of start-up per agent).
// Usage (env DATABASE_URL of the server): tsx bench/create-agents.mts <goal_id> <n>; prints [{agent_id, api_key}].
import { disconnect } from "@/lib/db";
import { registerAgent } from "@/lib/domain/agents/agents";

const [goalId, n] = process.argv.slice(2).map(Number);
const agents = [];
for (let i = 0; i < (n ?? 0); i++)
  agents.push(await registerAgent({ goalId: goalId as number, name: `bench-${i}`, role: "engineer" }));
await disconnect();
process.stdout.write(JSON.stringify(agents));
