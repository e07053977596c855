import { read, type Unit } from "@/lib/db";
import { waitingForOwner } from "@/lib/domain/questions/owner-questions";

/**
 * The owner's inbox: what waits for them across their goals — questions (escalated to the top), resource
 * requests (`#requests`) and proposals (`#approvals`). Writes that change any of these wake
 * `owner:<userId>` on the bus; `/api/inbox/stream` turns that into a live refresh of every signed-in page
 * (the nav badges, the inbox, #requests, #approvals).
 */
export const ownerTopic = (ownerId: number) => `owner:${ownerId}`;

/** Wake the owner's live pages (after commit, like every bus notification). */
export function notifyOwner(u: Unit, ownerId: number): void {
  u.notify(ownerTopic(ownerId));
}

export type InboxStamp = { questions: string[]; requests: number[]; approvals: number[] };

/** The ids of everything waiting for the owner: equal stamps mean nothing the owner sees has changed. */
export async function ownerInboxStamp(ownerId: number): Promise<InboxStamp> {
  return read(async ({ db }) => {
    const [questions, requests, approvals] = await Promise.all([
      db.question.findMany({
        where: waitingForOwner(ownerId),
        select: { id: true },
        orderBy: { id: "asc" },
        take: 500,
      }),
      db.resourceRequest.findMany({
        where: { ownerId, status: "open" },
        select: { id: true },
        orderBy: { id: "asc" },
        take: 500,
      }),
      db.proposal.findMany({
        where: {
          kind: { in: ["task_tree", "agent"] },
          goal: { ownerId },
          status: "pending",
          messageId: { not: null },
        },
        select: { id: true },
        orderBy: { id: "asc" },
        take: 500,
      }),
    ]);
    return {
      questions: questions.map((q) => q.id),
      requests: requests.map((r) => r.id),
      approvals: approvals.map((p) => p.id),
    };
  });
}
