"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { issueAgentKey } from "@/lib/domain/agents/agents";
import { sendOwnerMessage } from "@/lib/domain/messages/send-owner-message";
import { unquarantineAgent } from "@/lib/domain/reputation/unquarantine";
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
