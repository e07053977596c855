import { read } from "@/lib/db";
import { type FeedMessage, listGoalMessages } from "./queries";

/** The last `limit` messages of a goal, oldest first (the goal page's initial feed). */
export async function recentGoalMessages(goalId: number, limit = 100): Promise<FeedMessage[]> {
  const first = await read(({ db }) =>
    db.message.findFirst({
      where: { goalId },
      orderBy: { id: "desc" },
      skip: limit - 1,
      select: { id: true },
    }),
  );
  return listGoalMessages(goalId, first ? first.id - 1 : 0, limit);
}
