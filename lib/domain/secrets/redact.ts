import type { Unit } from "@/lib/db";
import { logger } from "@/lib/log";
import { decryptValue } from "./crypto";

/**
 * Secret values out of recorded runtime output (issue 11 §4: transcripts never hold a secret). A launched
 * agent has its owner's secrets in its environment (docs/secrets.md); what it prints, passes to a tool or
 * gets back from one is reported by its runner and recorded as events. Before recording, every value the
 * agent may hold — the owner's user-scope secrets, its agent-scope secrets, and those of any goal task it
 * was assigned — is replaced by `[secret NAME]`, verbatim and as it appears inside JSON. Values shorter
 * than MIN_LENGTH are left alone (replacing "abc" everywhere would garble the transcript, and so short a
 * value is no secret). A revoked secret's value is gone from the database and cannot be redacted.
 */
export const MIN_LENGTH = 6;

export type Redactor = (text: string) => string;

export async function secretRedactor(
  u: Unit,
  agent: { id: number; goalId: number; ownerId: number },
): Promise<Redactor> {
  const tasks = await u.db.goalTask.findMany({ where: { assigneeId: agent.id }, select: { id: true } });
  const rows = await u.db.secret.findMany({
    where: {
      ownerId: agent.ownerId,
      ciphertext: { not: null },
      OR: [
        { scopeType: "user", scopeId: agent.ownerId },
        { scopeType: "agent", scopeId: agent.id },
        ...(tasks.length ? [{ scopeType: "task", scopeId: { in: tasks.map((t) => t.id) } }] : []),
      ],
    },
  });
  const pairs: [string, string][] = [];
  for (const r of rows) {
    let value: string;
    try {
      const stored = decryptValue(
        {
          secretId: r.id,
          ownerId: r.ownerId,
          scopeType: r.scopeType,
          scopeId: r.scopeId,
          name: r.name,
          version: r.version,
        },
        r.ciphertext ?? "",
      );
      // A file's bytes are redacted as text too (what `cat $FILE` would print).
      value = typeof stored === "string" ? stored : stored.toString("utf8");
    } catch (e) {
      logger.warn({ err: e, secret: r.id }, "secret not decryptable for redaction");
      continue;
    }
    if (value.length < MIN_LENGTH) continue;
    const mark = `[secret ${r.name}]`;
    pairs.push([value, mark]);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) pairs.push([escaped, mark]);
  }
  if (pairs.length === 0) return (t) => t;
  // Longest first: a value that contains another is replaced whole.
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    for (const [value, mark] of pairs) if (out.includes(value)) out = out.split(value).join(mark);
    return out;
  };
}
