import { approveInput, rejectInput } from "@/lib/domain/proposals/decide-proposal";

/**
 * The decision the approvals form sends, parsed with the same schemas as `POST /api/approvals/:id/…`:
 * a reject needs a non-empty reason of at most 4,000 characters (a ZodError otherwise, which every
 * surface maps to `invalid_input`).
 */
export function parseDecision(kind: "approve" | "reject", contentHash: string, reason: string) {
  return kind === "approve"
    ? { kind, ...approveInput.parse({ content_hash: contentHash }) }
    : { kind, ...rejectInput.parse({ content_hash: contentHash, reason }) };
}
