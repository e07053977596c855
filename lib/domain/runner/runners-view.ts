import { read } from "@/lib/db";
import { forbidden } from "@/lib/errors";
import { listRunnerTokens } from "./tokens";

/**
 * Runner tokens in the UI (issue 11 §1, the `/runners` page). Runner tokens are operator-scoped: a runner
 * serves every goal of the hub and receives each launch's secrets, so a token is not an owner's to create.
 * In the web app the operator is the **first owner** (the account the setup page created, lowest id); the
 * CLI (`switchboard runner token …`) is the operator too. Any other owner gets `forbidden`, and the page is
 * not in their navigation. docs/runner.md "Runner tokens in the UI".
 */
export async function isOperator(userId: number): Promise<boolean> {
  const first = await read(({ db }) => db.user.findFirst({ orderBy: { id: "asc" }, select: { id: true } }));
  return first?.id === userId;
}

export async function requireOperator(userId: number): Promise<void> {
  if (!(await isOperator(userId))) {
    throw forbidden("Only the hub's operator (its first owner) manages runner tokens.");
  }
}

/** The tokens, each with its runner instances' last report and the agents each instance holds now. */
export async function runnersView() {
  const [tokens, held] = await Promise.all([
    listRunnerTokens(),
    read(({ db }) =>
      db.agent.findMany({
        where: {
          runnerManaged: true,
          runState: { in: ["starting", "running", "stopped"] },
          leaseUntil: { not: null },
        },
        select: {
          id: true,
          name: true,
          goalId: true,
          runState: true,
          runnerInstance: true,
          leaseUntil: true,
        },
        orderBy: { id: "asc" },
      }),
    ),
  ]);
  const now = Date.now();
  return tokens.map((t) => {
    const mine = held.filter(
      (a) => a.runnerInstance?.startsWith(`${t.id}:`) && (a.leaseUntil?.getTime() ?? 0) > now,
    );
    const instances = [...new Set(mine.map((a) => (a.runnerInstance ?? "").slice(`${t.id}:`.length)))];
    return {
      ...t,
      status: t.status as {
        instance?: string;
        runtimes?: string[];
        running?: number;
        free_agent_slots?: number;
      } | null,
      instances,
      agents: mine.map((a) => ({
        agent_id: a.id,
        name: a.name,
        goal_id: a.goalId,
        run_state: a.runState,
        instance: (a.runnerInstance ?? "").slice(`${t.id}:`.length),
      })),
    };
  });
}
