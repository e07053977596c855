import { z } from "zod";
import { type Unit, write } from "@/lib/db";
import { closeWhatItAsked } from "@/lib/domain/agents/close-asked";
import { isTerminated, notTerminatedWhere } from "@/lib/domain/agents/terminated";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { finishAgentTask } from "@/lib/domain/plans/plan-state";
import { DomainError } from "@/lib/errors";
import { idFromString } from "@/lib/ids";

export const terminateChildInput = z.strictObject({
  agent_id: z.string().min(1).max(64).describe("A member of a team you lead (list_peers scope=children)."),
  force: z
    .boolean()
    .default(false)
    .describe("true: end it without a pending review; its plan task becomes failed (audited)."),
});

export const terminateChildOutput = z.object({ sentinel_posted: z.literal(true) });

export const TERMINATE_TEXT =
  "[TERMINATE] Your leader has ended your work. Stop now: do not call further tools. Your inbox is closed from here on.";

/**
 * Post terminate sentinels depth-first: first to every member of the teams `agentId` leads (their
 * own teams first), then to the agent itself. Agents that already have one, or have ended, are skipped.
 * Each agent's pending questions and proposals are closed (`closeWhatItAsked`) unless `closeAsked` is
 * false (a goal's cancel closes everything of the goal itself, with its own reason and counts).
 */
export async function postSentinels(
  u: Unit,
  agentId: number,
  reason: string,
  cascadeFrom: number | null,
  closeAsked = true,
): Promise<number[]> {
  const posted: number[] = [];
  const children = await u.db.agent.findMany({
    where: { leaderId: agentId },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  for (const c of children)
    posted.push(...(await postSentinels(u, c.id, "cascade", cascadeFrom ?? agentId, closeAsked)));
  // Claim first (a conditional update): concurrent terminations of one agent post one sentinel.
  const claimed = await u.db.agent.updateMany({
    where: { id: agentId, terminatePostedAt: null, ...notTerminatedWhere },
    data: { terminatePostedAt: new Date(), reviewPending: false, terminationRequested: false },
  });
  if (claimed.count === 0) return posted;
  const a = await u.db.agent.findUniqueOrThrow({ where: { id: agentId } });
  await insertMessage(u, {
    goalId: a.goalId,
    recipientAgentId: a.id,
    sender: { kind: "system" },
    kind: "terminate",
    content: TERMINATE_TEXT,
    meta: { reason, cascade_from: cascadeFrom === null ? null : String(cascadeFrom) },
  });
  await appendEvent(u, {
    goalId: a.goalId,
    name: "status",
    agentId: a.id,
    teamId: a.teamId,
    data: {
      state: "terminate_posted",
      reason,
      cascade_from: cascadeFrom === null ? null : String(cascadeFrom),
    },
  });
  // What it still waits on is moot.
  if (closeAsked) {
    await closeWhatItAsked(u, a, `${a.name} (#${a.id}) was terminated (${reason}).`);
  }
  posted.push(a.id);
  return posted;
}

function alreadyTerminating(agentId: string, consumed: boolean) {
  return new DomainError("already_terminating", `Agent ${agentId} is already terminating.`, {
    details: { agent_id: agentId, terminate_consumed: consumed },
  });
}

/**
 * `terminate_child`: the leader's verdict. Plain: approves a pending review (or termination request),
 * the child's plan task becomes `done`. `force`: ends it regardless, the task becomes `failed`, and
 * `terminate.forced` (reason `leader_force`) is recorded. Either way a terminate sentinel goes to the
 * child's inbox and cascades through every team it leads.
 */
export async function terminateChild(
  caller: { agentId: number; goalId: number },
  input: z.output<typeof terminateChildInput>,
) {
  const id = idFromString(input.agent_id);
  await write(async (u) => {
    const target = id === undefined ? null : await u.db.agent.findUnique({ where: { id } });
    if (!target || target.goalId !== caller.goalId) {
      throw new DomainError("unknown_agent", `No agent "${input.agent_id}" in your goal.`, {
        details: { agent_id: input.agent_id },
      });
    }
    const led = target.teamId
      ? await u.db.team.findFirst({ where: { id: target.teamId, leaderId: caller.agentId } })
      : null;
    if (!led && target.leaderId !== caller.agentId) {
      throw new DomainError("not_leader", `You do not lead the team of agent ${input.agent_id}.`, {
        details: { agent_id: input.agent_id },
      });
    }
    if (target.terminatePostedAt || isTerminated(target)) {
      throw alreadyTerminating(input.agent_id, target.terminateConsumed);
    }
    if (!input.force && !target.reviewPending && !target.terminationRequested) {
      throw new DomainError(
        "child_not_pending_review",
        `Agent ${input.agent_id} has not signalled review, so there is nothing to approve.`,
        {
          details: { agent_id: input.agent_id },
        },
      );
    }
    const outcome = input.force ? "failed" : "done";
    if (input.force) {
      await appendEvent(u, {
        goalId: caller.goalId,
        name: "terminate.forced",
        agentId: target.id,
        teamId: target.teamId,
        data: { reason: "leader_force", by: String(caller.agentId) },
      });
    } else {
      await appendEvent(u, {
        goalId: caller.goalId,
        name: "review.approved",
        agentId: target.id,
        teamId: target.teamId,
        data: { by: String(caller.agentId) },
      });
    }
    await finishAgentTask(u, target, outcome);
    const posted = await postSentinels(u, target.id, input.force ? "leader_force" : "approved", null);
    if (!posted.includes(target.id)) throw alreadyTerminating(input.agent_id, target.terminateConsumed);
  });
  return { sentinel_posted: true as const };
}
