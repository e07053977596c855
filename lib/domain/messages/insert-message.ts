import type { Unit } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { uuid } from "@/lib/ids";

/** Who a message is from: an agent, the owner (`user`), or Switchboard itself (`system`). */
export type Sender = { kind: "agent"; agentId: number } | { kind: "user" } | { kind: "system" };

/** How a stored sender reads in tool output: an agent id, `__user__` for the owner, or `system`. */
export function senderLabel(senderKind: string, senderAgentId: number | null): string {
  if (senderKind === "agent") return String(senderAgentId);
  return senderKind === "user" ? USER_SENTINEL : "system";
}

export type NewMessage = {
  goalId: number | null;
  sender: Sender;
  /** message | system | review_report | question | terminate | task_assignment | … */
  kind?: string;
  content: string;
  meta?: Record<string, unknown>;
} & ({ recipientAgentId: number; channelId?: never } | { channelId: number; recipientAgentId?: never });

/** Insert an inbox entry or a channel post; wakes the recipient's waiters and the goal's live views. */
export async function insertMessage(u: Unit, m: NewMessage): Promise<{ id: number; uid: string }> {
  const uid = uuid();
  const row = await u.sql.get<{ id: number }>(
    `INSERT INTO "Message" (uid, "goalId", "channelId", "recipientAgentId", "senderAgentId", "senderKind", kind, content, "metaJson", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    uid,
    m.goalId,
    m.channelId ?? null,
    m.recipientAgentId ?? null,
    m.sender.kind === "agent" ? m.sender.agentId : null,
    m.sender.kind,
    m.kind ?? "message",
    m.content,
    m.meta ? JSON.stringify(m.meta) : null,
    new Date(),
  );
  if (!row) throw new Error("insertMessage: no id returned");
  if (m.recipientAgentId !== undefined) u.notify(`agent:${m.recipientAgentId}`);
  if (m.goalId !== null) u.notify(`goal:${m.goalId}`);
  return { id: Number(row.id), uid };
}
