// `npm run demo` (issue 11 §5): a whole team at work with no model key. Starts the demo (lib/standin/demo.ts:
// the stand-in model playing lib/standin/demo-team.ts, the hub with its embedded runner on a fresh SQLite
// database in .demo/, a demo owner, a first goal), prints where to look and how to sign in, and narrates the
// goal's events until Ctrl-C. docs/runner.md "The demo".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DEMO_EMAIL, DEMO_PASSWORD, type Demo, ROOT, startDemo } from "../lib/standin/demo";

type GoalEvent = {
  seq: number;
  event: string;
  agent_id: number | null;
  data: Record<string, unknown>;
};

/** One line for the events a newcomer wants to follow in the terminal (the browser shows everything). */
function narrate(e: GoalEvent, names: Map<number, string>, goalUrl: string): string | undefined {
  const who = e.agent_id ? (names.get(e.agent_id) ?? `agent #${e.agent_id}`) : "the hub";
  const tool = typeof e.data.tool === "string" ? e.data.tool.replace(/^mcp__switchboard__/, "") : "";
  switch (e.event) {
    case "agent_registered":
    case "agent_spawned":
      if (e.agent_id && typeof e.data.name === "string") names.set(e.agent_id, String(e.data.name));
      return e.event === "agent_spawned" ? `${e.data.name} spawned (${e.data.role})` : undefined;
    case "agent_started":
      return `${who} started as Claude Code (runner ${e.data.runner})`;
    case "tool_called":
      return `${who} → ${tool}`;
    case "question_escalated":
      return e.data.to === "__user__"
        ? `A question is waiting for YOU: answer it on ${goalUrl} (or /questions)`
        : undefined;
    case "review.escalated_to_user":
      return `The coordinator hands the goal to you: Approve it on ${goalUrl}`;
    case "review.approved":
      return `${who}'s work approved`;
    case "goal_completed":
      return "The goal is completed. Create another goal in the browser to see it again, or Ctrl-C to stop.";
    case "agent_completed":
      return `${who} finished (${e.data.reason})`;
    default:
      return undefined;
  }
}

async function follow(demo: Demo, signal: AbortSignal) {
  const names = new Map<number, string>();
  let after = "";
  while (!signal.aborted) {
    try {
      const r = await fetch(`${demo.url}/api/goals/${demo.goalId}/events?limit=200${after}`, {
        headers: { authorization: `Bearer ${demo.ownerToken}` },
        signal,
      });
      const page = (await r.json()) as { events: GoalEvent[]; next_cursor: string | number | null };
      for (const e of page.events) {
        const line = narrate(e, names, demo.goalUrl);
        if (line) process.stdout.write(`  · ${line}\n`);
      }
      if (page.next_cursor !== null && page.next_cursor !== undefined)
        after = `&after=${encodeURIComponent(String(page.next_cursor))}`;
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function main() {
  const args = process.argv.slice(2);
  const portArg = args.indexOf("--port");
  const port = portArg >= 0 ? Number(args[portArg + 1]) : Number(process.env.PORT ?? 3000);
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    process.stdout.write("No build yet: running `npm run build` first (once).\n");
    const b = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (b.status !== 0) process.exit(b.status ?? 1);
  }
  process.stdout.write("Starting the Switchboard demo (stand-in model, hub, embedded runner)…\n");
  const demo = await startDemo({ port, serverLog: args.includes("--verbose") });
  process.stdout.write(
    [
      "",
      "Switchboard demo: a scripted team of real Claude Code agents, no API key needed.",
      "",
      `  Open        ${demo.goalUrl}`,
      `  Sign in     ${DEMO_EMAIL} / ${DEMO_PASSWORD}`,
      `  Data        ${demo.dir} (a fresh SQLite database, wiped at the next \`npm run demo\`)`,
      `  Model       stand-in at ${demo.model.url} (replies scripted by lib/standin/demo-team.ts)`,
      "",
      "The coordinator plans two tasks and spawns a researcher and a writer. The researcher asks you a",
      'question ("Questions for you" on the goal page): answer it. The coordinator approves both agents\'',
      "work and hands the goal to you: Approve it and the goal completes. Ctrl-C stops everything.",
      "",
    ].join("\n"),
  );
  const following = new AbortController();
  void follow(demo, following.signal);
  await new Promise<void>((resolve) => {
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => resolve());
    demo.server.once("exit", () => resolve());
  });
  following.abort();
  process.stdout.write("\nStopping…\n");
  await demo.stop();
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`demo: ${(e as Error).message}\n`);
  process.exit(1);
});
