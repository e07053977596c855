import { z } from "zod";
import { read } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { MAX_DB_INT } from "@/lib/ids";

export const listEventsQuery = z.object({
  after: z.coerce.number().int().min(0).max(MAX_DB_INT).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export type EventView = {
  seq: number;
  ts: string;
  event: string;
  goal_id: number;
  agent_id: number | null;
  team_id: string | null;
  data: Record<string, unknown>;
};

type Row = {
  seq: number;
  ts: SqlDate;
  name: string;
  agentId: number | null;
  teamId: string | null;
  dataJson: string;
};

/** Events of a goal after cursor `after`, oldest first. `next_cursor` is the last `seq` returned. */
export async function listEvents(goalId: number, q: z.infer<typeof listEventsQuery>) {
  const rows = await read(({ sql }) =>
    sql.all<Row>(
      `SELECT seq, ts, name, "agentId", "teamId", "dataJson" FROM "Event"
       WHERE "goalId" = ? AND seq > ? ORDER BY seq LIMIT ?`,
      goalId,
      q.after,
      q.limit,
    ),
  );
  const events: EventView[] = rows.map((r) => ({
    seq: Number(r.seq),
    ts: toIso(r.ts),
    event: r.name,
    goal_id: goalId,
    agent_id: r.agentId,
    team_id: r.teamId,
    data: JSON.parse(r.dataJson) as Record<string, unknown>,
  }));
  return { events, next_cursor: events.at(-1)?.seq ?? q.after };
}
