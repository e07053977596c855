import { read, write } from "@/lib/db";
import { type SqlDate, toDate } from "@/lib/db/rows";
import { appendEvent } from "@/lib/domain/events/append-event";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

/**
 * Tools a leader may call while a direct child's review is pending (docs/contracts.md), plus our own
 * read-only `read_inbox` and `whoami`: the review report arrives in the inbox, so closing the inbox
 * would leave an HTTP agent unable to see what it must review.
 */
export const REVIEW_GATE_ALLOW = new Set([
  "terminate_child",
  "send_message",
  "list_pending_reviews",
  "signal_review",
  "ask_user",
  "answer_question",
  "escalate_question",
  "read_inbox",
  "whoami",
]);

/** Hand-written SQL: the gate runs before every agent tool call (docs/database.md). */
type GateRow = { lastToolCallAt: SqlDate | null; waiting: string | null };

/**
 * Runs before every agent tool call: records `lastToolCallAt` (at most one small UPDATE, only when the
 * stored value is older than SWITCHBOARD_TOOL_CALL_TOUCH_S) and applies the review gate: outside the
 * allow-list, a leader with a direct child awaiting review gets `review_gate_closed` naming the
 * children, and `review_gate.denied` is recorded. `now` is the time of the call (tests pass their clock).
 */
export async function beforeAgentTool(
  caller: { agentId: number; goalId: number; lastToolCallAt?: Date | null },
  tool: string,
  now = new Date(),
): Promise<void> {
  const gated = !REVIEW_GATE_ALLOW.has(tool);
  // An allowed tool needs only lastToolCallAt, which authentication usually read already.
  const row: GateRow | undefined =
    !gated && caller.lastToolCallAt !== undefined
      ? { lastToolCallAt: caller.lastToolCallAt, waiting: null }
      : await read(({ sql }) =>
          sql.get<GateRow>(
            gated
              ? `SELECT a."lastToolCallAt",
             (SELECT ${sql.postgres ? "string_agg(c.id || ':' || c.name, ',')" : "group_concat(c.id || ':' || c.name, ',')"}
              FROM "Agent" c WHERE c."reviewPending" = ? AND c.id <> a.id
                AND (c."leaderId" = a.id OR c."teamId" IN (SELECT t.id FROM "Team" t WHERE t."leaderId" = a.id))) AS waiting
           FROM "Agent" a WHERE a.id = ?`
              : `SELECT a."lastToolCallAt", NULL AS waiting FROM "Agent" a WHERE a.id = ?`,
            ...(gated ? [true, caller.agentId] : [caller.agentId]),
          ),
        );
  if (!row) return;
  const last = row.lastToolCallAt ? toDate(row.lastToolCallAt).getTime() : 0;
  const touchMs = env().SWITCHBOARD_TOOL_CALL_TOUCH_S * 1000;
  const touch = now.getTime() - last >= touchMs;
  if (!row.waiting) {
    if (touch) {
      await write(({ sql }) =>
        sql.run(`UPDATE "Agent" SET "lastToolCallAt" = ? WHERE id = ?`, now, caller.agentId),
      );
    }
    return;
  }
  const children = row.waiting.split(",").map((s) => {
    const i = s.indexOf(":");
    return { agent_id: s.slice(0, i), name: s.slice(i + 1) };
  });
  await write(async (u) => {
    if (touch) await u.sql.run(`UPDATE "Agent" SET "lastToolCallAt" = ? WHERE id = ?`, now, caller.agentId);
    await appendEvent(u, {
      goalId: caller.goalId,
      name: "review_gate.denied",
      agentId: caller.agentId,
      data: { tool, waiting: children.map((c) => c.agent_id) },
    });
  });
  throw new DomainError(
    "review_gate_closed",
    `Review pending from ${children.map((c) => `${c.name} (agent ${c.agent_id})`).join(", ")}: ${tool} is blocked until you respond.`,
    {
      details: { tool, waiting: children },
    },
  );
}
