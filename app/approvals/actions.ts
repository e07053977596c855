"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { decideProposal } from "@/lib/domain/proposals/decide-proposal";
import { actionError } from "@/lib/http/form-state";
import { parseDecision } from "./decision";

/** Approve or reject a proposal exactly as shown (its content hash). */
export async function decideAction(
  messageId: number,
  contentHash: string,
  kind: "approve" | "reject",
  reason: string,
): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await decideProposal(owner.userId, messageId, parseDecision(kind, contentHash, reason));
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath("/approvals");
  return {};
}
