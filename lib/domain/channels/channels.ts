import type { Unit } from "@/lib/db";
import { insertMessage } from "@/lib/domain/messages/insert-message";

/** The one `#approvals` channel: proposals awaiting an owner, each post tied to its goal (`goalId`). */
export const APPROVALS_CHANNEL = "approvals";

/**
 * The id of a shared channel (`#approvals`, `#requests`; its name is its kind), created on first use (a unique
 * name, so concurrent creators converge).
 */
async function sharedChannelId(
  u: Unit,
  name: typeof APPROVALS_CHANNEL | typeof REQUESTS_CHANNEL,
): Promise<number> {
  const found = await u.sql.get<{ id: number }>(`SELECT id FROM "Channel" WHERE name = ?`, name);
  if (found) return Number(found.id);
  const row = await u.sql.get<{ id: number }>(
    `INSERT INTO "Channel" (name, kind, "createdAt") VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind RETURNING id`,
    name,
    name,
    new Date(),
  );
  if (!row) throw new Error(`${name} channel: no id`);
  return Number(row.id);
}

/** The id of `#approvals`. */
export const approvalsChannelId = (u: Unit) => sharedChannelId(u, APPROVALS_CHANNEL);

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

/** The id of `#requests`. */
export const requestsChannelId = (u: Unit) => sharedChannelId(u, REQUESTS_CHANNEL);
