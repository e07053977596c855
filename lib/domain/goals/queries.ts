import { read } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { senderLabel } from "@/lib/domain/messages/insert-message";
import { goalDashboard } from "./dashboard";
import { ownedGoal } from "./owned";

/** `GET /api/goals` rows, as the goals contract shapes them. An owner sees only their own goals. */
export async function listGoals(ownerId: number) {
  return (await goalDashboard(ownerId)).map(({ progress: _, ...row }) => row);
}

/** A goal of this owner, or `not_found` (another owner's goal is indistinguishable from none). */
export async function getOwnedGoal(ownerId: number, goalId: number) {
  return read((u) => ownedGoal(u, ownerId, goalId));
}

export type FeedMessage = {
  id: number;
  message_id: string;
  from: string;
  from_name: string | null;
  to: string | null;
  to_name: string | null;
  channel: string | null;
  kind: string;
  content: string;
  created_at: string;
  consumed: boolean;
};

type Row = {
  id: number;
  uid: string;
  senderKind: string;
  senderAgentId: number | null;
  fromName: string | null;
  recipientAgentId: number | null;
  toName: string | null;
  channelName: string | null;
  kind: string;
  content: string;
  createdAt: SqlDate;
  consumedAt: SqlDate | null;
};

/** Every message of a goal (inboxes and channel posts) after message id `after`, oldest first. */
export async function listGoalMessages(goalId: number, after = 0, limit = 200): Promise<FeedMessage[]> {
  const rows = await read(({ sql }) =>
    sql.all<Row>(
      `SELECT m.id, m.uid, m."senderKind", m."senderAgentId", s.name AS "fromName", m."recipientAgentId",
              r.name AS "toName", c.name AS "channelName", m.kind, m.content, m."createdAt", m."consumedAt"
       FROM "Message" m
       LEFT JOIN "Agent" s ON s.id = m."senderAgentId"
       LEFT JOIN "Agent" r ON r.id = m."recipientAgentId"
       LEFT JOIN "Channel" c ON c.id = m."channelId"
       WHERE m."goalId" = ? AND m.id > ? ORDER BY m.id LIMIT ?`,
      goalId,
      after,
      limit,
    ),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    message_id: r.uid,
    from: senderLabel(r.senderKind, r.senderAgentId),
    from_name: r.fromName,
    to: r.recipientAgentId === null ? null : String(r.recipientAgentId),
    to_name: r.toName,
    channel: r.channelName ? `#${r.channelName}` : null,
    kind: r.kind,
    content: r.content,
    created_at: toIso(r.createdAt),
    consumed: r.consumedAt !== null,
  }));
}
