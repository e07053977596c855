"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { decideProposal } from "@/lib/domain/proposals/decide-proposal";
import { isDomainError } from "@/lib/errors";

/** Approve or reject a proposal exactly as shown (its content hash). */
export async function decideAction(
  messageId: number,
  contentHash: string,
  kind: "approve" | "reject",
  reason: string,
): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await decideProposal(
      owner.userId,
      messageId,
      kind === "approve"
        ? { kind, content_hash: contentHash }
        : { kind, content_hash: contentHash, reason: reason.trim().slice(0, 4000) },
    );
  } catch (e) {
    if (isDomainError(e)) return { error: e.message };
    throw e;
  }
  revalidatePath("/approvals");
  return {};
}
