import Link from "next/link";
import { Panel } from "@/components/ui/panel";
import { listRequests } from "@/lib/domain/secrets/owner-requests";
import { RequestCard } from "./request-card";

/**
 * Open resource requests, answerable in place: one goal's (the goal page's card) or all the owner's (the
 * card in the owner's inbox, /questions). Nothing when none is open.
 */
export async function OpenRequestsPanel({ ownerId, goalId }: { ownerId: number; goalId?: number }) {
  const open = await listRequests(ownerId, { status: "open", goal_id: goalId });
  if (open.length === 0) return null;
  return (
    <Panel
      title={`${goalId ? "Resource requests" : "Credentials your agents asked for"} (${open.length})`}
      actions={
        <Link href="/requests" className="text-xs text-slate-500 hover:underline">
          #requests
        </Link>
      }
    >
      <div className="divide-y divide-slate-100" data-testid={goalId ? "goal-requests" : "inbox-requests"}>
        {open.map((r) => (
          <RequestCard key={r.request_id} r={r} showGoal={!goalId} />
        ))}
      </div>
    </Panel>
  );
}
