"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { issueAgentKey } from "@/lib/domain/agents/agents";
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
