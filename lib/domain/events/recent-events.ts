import { read } from "@/lib/db";
import { type EventView, listEvents } from "./list-events";

/** The last `limit` events of a goal, oldest first (the goal page's initial timeline). */
export async function recentEvents(goalId: number, limit = 50): Promise<EventView[]> {
  const first = await read(({ db }) =>
    db.event.findFirst({
      where: { goalId },
      orderBy: { seq: "desc" },
      skip: limit - 1,
      select: { seq: true },
    }),
  );
  return (await listEvents(goalId, { after: first ? first.seq - 1 : 0, limit })).events;
}
