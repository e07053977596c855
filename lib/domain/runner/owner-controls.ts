import { type Unit, write } from "@/lib/db";
import { isTerminated } from "@/lib/domain/agents/terminated";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { owned } from "@/lib/domain/goals/owned";
import { finishAgentTask } from "@/lib/domain/plans/plan-state";
import { postSentinels } from "@/lib/domain/teams/terminate-child";
import { DomainError } from "@/lib/errors";
import type { RunState } from "./launch-jobs";

/**
 * The owner's Stop and Terminate for one agent (issue 11, docs/runner.md "Stop, Restart, Terminate");
 * Restart is `restartAgent` in launch-jobs.ts.
 *
 * Stop ends the agent's process and keeps the agent: it stays a member of its team with its inbox, plan
 * task and keys, and is not launched again until the owner restarts it (its next launch resumes the
 * session where the runtime can). A queued or backing-off agent becomes `stopped` at once; a starting or
 * running one becomes `stopped` under its lease, its runner's next renewal answers `stop` (SIGTERM, then
 * SIGKILL after 5 s) and its exit leaves it `stopped`.
 */
const STOPPABLE: RunState[] = ["queued", "starting", "running", "backoff"];

async function ownedAgent(u: Unit, ownerId: number, agentId: number) {
  const a = await u.db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
  return owned(a, (x) => x.goal.ownerId, ownerId, `agent ${agentId}`);
}

export async function stopAgent(ownerId: number, agentId: number) {
  return write(async (u) => {
    const a = await ownedAgent(u, ownerId, agentId);
    if (!a.runnerManaged) {
      throw new DomainError(
        "invalid_input",
        `Agent ${agentId} runs elsewhere with its own key: no runner holds a process to stop.`,
        { details: { agent_id: agentId } },
      );
    }
    const was = a.runState as RunState | null;
    const live = was === "starting" || was === "running";
    const { count } = await u.db.agent.updateMany({
      where: { id: a.id, launchSeq: a.launchSeq, runState: { in: STOPPABLE } },
      data: live
        ? { runState: "stopped", relaunchAt: null }
        : { runState: "stopped", relaunchAt: null, leaseUntil: null },
    });
    if (count === 1) {
      await appendEvent(u, {
        goalId: a.goalId,
        agentId: a.id,
        teamId: a.teamId,
        name: "agent_stop_requested",
        data: { by: USER_SENTINEL, from: was, launch: a.launchSeq },
      });
    }
    return { agent_id: a.id, stopped: count === 1, run_state: count === 1 ? "stopped" : was };
  });
}

/**
 * Terminate (the crash notice's second action): the owner ends an agent for good, as a leader's
 * `terminate_child force` would — `terminate.forced` (reason `owner`), its plan task `failed`, terminate
 * sentinels down every team it leads. The agent itself is ended at once (`status = terminated`): a
 * crashed or stopped agent has no process that would read its sentinel, and a running one is killed at
 * its runner's next renewal. The coordinator is not terminated this way: it ends with its goal.
 */
export async function terminateAgentAsOwner(ownerId: number, agentId: number) {
  return write(async (u) => {
    const a = await ownedAgent(u, ownerId, agentId);
    if (a.goal.coordinatorAgentId === a.id) {
      throw new DomainError(
        "invalid_input",
        "The coordinator ends with its goal: restart it, or complete or cancel the goal.",
        { details: { agent_id: agentId } },
      );
    }
    if (isTerminated(a)) {
      throw new DomainError("already_terminating", `Agent ${agentId} is already terminated.`, {
        details: { agent_id: String(agentId), terminate_consumed: a.terminateConsumed },
      });
    }
    await endAgentAsOwner(u, a);
    return { agent_id: a.id, terminated: true };
  });
}

type Endable = {
  id: number;
  goalId: number;
  teamId: string | null;
  leaderId: number | null;
  planTaskId: string | null;
  runnerManaged: boolean;
  runState: string | null;
  terminateConsumed: boolean;
};

/** The owner's end of one agent, inside the caller's unit (Terminate here, and the watchdog's idle alert). */
export async function endAgentAsOwner(u: Unit, a: Endable): Promise<void> {
  await appendEvent(u, {
    goalId: a.goalId,
    name: "terminate.forced",
    agentId: a.id,
    teamId: a.teamId,
    data: { reason: "owner", by: USER_SENTINEL },
  });
  await finishAgentTask(u, a, "failed");
  await postSentinels(u, a.id, "owner", null);
  await u.db.agent.update({
    where: { id: a.id },
    data: {
      status: "terminated",
      terminateConsumed: true,
      reviewPending: false,
      terminationRequested: false,
      relaunchAt: null,
      ...(a.runState === "starting" || a.runState === "running" ? {} : { leaseUntil: null }),
      ...(a.runnerManaged && a.runState !== "starting" && a.runState !== "running"
        ? { runState: "exited" }
        : {}),
    },
  });
  await appendEvent(u, {
    goalId: a.goalId,
    name: "agent_completed",
    agentId: a.id,
    teamId: a.teamId,
    data: { reason: "terminated_by_owner" },
  });
}
