"use server";

import { revalidatePath } from "next/cache";
import { ZodError } from "zod";
import { requireOwner } from "@/lib/auth/require-owner";
import { issueAgentKey } from "@/lib/domain/agents/agents";
import { MAX_MESSAGE_CHARS } from "@/lib/domain/constants";
import { sendOwnerMessage } from "@/lib/domain/messages/send-owner-message";
import { isDomainError } from "@/lib/errors";

export type IssuedKey = { agent_id: number; api_key: string } | { error: string };

export async function issueKeyAction(agentId: number): Promise<IssuedKey> {
  const owner = await requireOwner();
  try {
    const issued = await issueAgentKey(agentId, { ownerId: owner.userId });
    revalidatePath("/goals/[id]", "page");
    return issued;
  } catch (e) {
    if (isDomainError(e)) return { error: e.message };
    throw e;
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
    if (isDomainError(e)) return { error: e.message };
    if (e instanceof ZodError)
      return { error: `Write a message (at most ${MAX_MESSAGE_CHARS.toLocaleString("en-US")} characters).` };
    throw e;
  }
}
