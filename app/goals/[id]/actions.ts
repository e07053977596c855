"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { issueAgentKey } from "@/lib/domain/agents/agents";
import { revokeAgentKey } from "@/lib/domain/agents/keys";
import { sendOwnerMessage } from "@/lib/domain/messages/send-owner-message";
import { unquarantineAgent } from "@/lib/domain/reputation/unquarantine";
import { restartAgent } from "@/lib/domain/runner/launch-jobs";
import { stopAgent, terminateAgentAsOwner } from "@/lib/domain/runner/owner-controls";
import { pauseGoal } from "@/lib/domain/usage/pause-goal";
import { resumeGoal, resumeGoalInput } from "@/lib/domain/usage/resume-goal";
import { actionError } from "@/lib/http/form-state";

export type IssuedKey = { agent_id: number; api_key: string } | { error: string };

export async function issueKeyAction(agentId: number): Promise<IssuedKey> {
  const owner = await requireOwner();
  try {
    const issued = await issueAgentKey(agentId, { ownerId: owner.userId });
    revalidatePath("/goals/[id]", "page");
    return issued;
  } catch (e) {
    return { error: actionError(e) };
  }
}

export type SentMessage = { delivered: true; message_id: string } | { error: string };

/** The owner sends a message to one of their agents (arrives from `__user__`). */
export async function sendOwnerMessageAction(agentId: number, content: string): Promise<SentMessage> {
  const owner = await requireOwner();
  try {
    const sent = await sendOwnerMessage(owner.userId, { agentId, content });
    revalidatePath("/goals/[id]", "page");
    return sent;
  } catch (e) {
    return { error: actionError(e) };
  }
}

/** The owner lifts an agent's quarantine (the goal page's "Lift quarantine"; same rule as unquarantine_agent). */
export async function unquarantineAction(agentId: number): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await unquarantineAgent(owner.userId, agentId);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/goals/[id]", "page");
  return {};
}

export type BudgetDecision = { status: string } | { error: string };

/** issue 12: the owner pauses the goal by hand (the same rule as POST /api/goals/:id/pause). */
export async function pauseGoalAction(goalId: number): Promise<BudgetDecision> {
  const owner = await requireOwner();
  try {
    const r = await pauseGoal(owner.userId, goalId);
    revalidatePath("/goals/[id]", "page");
    return r;
  } catch (e) {
    return { error: actionError(e) };
  }
}

/** Dollars as typed ("25", "25.50", "$1,000") → cents; blank → undefined (keep the budget); else NaN. */
function centsOf(text: string): number | undefined {
  const t = text.replace(/[$,\s]/g, "");
  if (t === "") return undefined;
  const m = t.match(/^(\d+)(?:\.(\d{1,2}))?$/);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0")) : Number.NaN;
}

/** issue 12: the owner resumes the goal, with a new budget when given (the same rule as resume_goal). */
export async function resumeGoalAction(
  goalId: number,
  dollars: string,
  tokens: string,
): Promise<BudgetDecision> {
  const owner = await requireOwner();
  try {
    const t = tokens.replace(/[,\s]/g, "");
    const input = resumeGoalInput.parse({
      goal_id: goalId,
      new_budget_dollars_cents: centsOf(dollars),
      new_budget_tokens: t === "" ? undefined : Number(t),
    });
    const r = await resumeGoal(owner.userId, input);
    revalidatePath("/goals/[id]", "page");
    return r;
  } catch (e) {
    return { error: actionError(e) };
  }
}

export type RunControl = "stop" | "restart" | "terminate";

/**
 * issue 11: the owner stops, restarts or terminates a runner-managed agent (the goal page, the transcript
 * page and the crash notice; the same rules as POST /api/agents/:id/stop|restart|terminate).
 */
export async function runControlAction(agentId: number, control: RunControl): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    if (control === "stop") await stopAgent(owner.userId, agentId);
    else if (control === "restart") await restartAgent(agentId, owner.userId);
    else await terminateAgentAsOwner(owner.userId, agentId);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/goals/[id]", "page");
  revalidatePath("/goals/[id]/agents/[agentId]", "page");
  return {};
}

/** issue 16 §2: the owner revokes one key of one of their agents (the agent page's Keys panel). */
export async function revokeAgentKeyAction(agentId: number, keyId: number): Promise<void> {
  const owner = await requireOwner();
  await revokeAgentKey(owner.userId, agentId, keyId);
  revalidatePath("/goals/[id]", "page");
  revalidatePath("/goals/[id]/agents/[agentId]", "page");
}
