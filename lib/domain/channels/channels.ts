import type { Unit } from "@/lib/db";
import { insertMessage } from "@/lib/domain/messages/insert-message";

/** The one `#approvals` channel: proposals awaiting an owner, each post tied to its goal (`goalId`). */
export const APPROVALS_CHANNEL = "approvals";

/** The id of `#approvals`, created on first use (a unique name, so concurrent creators converge). */
export async function approvalsChannelId(u: Unit): Promise<number> {
  const found = await u.sql.get<{ id: number }>(`SELECT id FROM "Channel" WHERE name = ?`, APPROVALS_CHANNEL);
  if (found) return Number(found.id);
  const row = await u.sql.get<{ id: number }>(
    `INSERT INTO "Channel" (name, kind, "createdAt") VALUES (?, 'approvals', ?)
     ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind RETURNING id`,
    APPROVALS_CHANNEL,
    new Date(),
  );
  if (!row) throw new Error("approvals channel: no id");
  return Number(row.id);
}

/** A system post in the goal's channel `#goal-<slug>` (every goal and task transition gets one). */
export async function postToGoalChannel(
  u: Unit,
  goalId: number,
  content: string,
  meta?: Record<string, unknown>,
): Promise<void> {
  const goal = await u.sql.get<{ channelId: number | null }>(
    `SELECT "channelId" FROM "Goal" WHERE id = ?`,
    goalId,
  );
  if (!goal?.channelId) return;
  await insertMessage(u, {
    goalId,
    channelId: Number(goal.channelId),
    sender: { kind: "system" },
    kind: "system",
    content,
    meta,
  });
}

/** The one `#requests` channel (issue 14): `request_resource` posts, each tied to its goal (`goalId`). */
export const REQUESTS_CHANNEL = "requests";

/** The id of `#requests`, created on first use (a unique name, so concurrent creators converge). */
export async function requestsChannelId(u: Unit): Promise<number> {
  const found = await u.sql.get<{ id: number }>(`SELECT id FROM "Channel" WHERE name = ?`, REQUESTS_CHANNEL);
  if (found) return Number(found.id);
  const row = await u.sql.get<{ id: number }>(
    `INSERT INTO "Channel" (name, kind, "createdAt") VALUES (?, 'requests', ?)
     ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind RETURNING id`,
    REQUESTS_CHANNEL,
    new Date(),
  );
  if (!row) throw new Error("requests channel: no id");
  return Number(row.id);
}
