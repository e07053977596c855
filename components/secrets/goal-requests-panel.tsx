import { Panel } from "@/components/ui/panel";
import { listRequests } from "@/lib/domain/secrets/owner-requests";
import { RequestCard } from "./request-card";

/** The goal's open resource requests, answerable in place (the goal page's card). */
export async function GoalRequestsPanel({ ownerId, goalId }: { ownerId: number; goalId: number }) {
  const open = await listRequests(ownerId, { status: "open", goal_id: goalId });
  if (open.length === 0) return null;
  return (
    <Panel title={`Resource requests (${open.length})`}>
      <div className="divide-y divide-slate-100" data-testid="goal-requests">
        {open.map((r) => (
          <RequestCard key={r.request_id} r={r} showGoal={false} />
        ))}
      </div>
    </Panel>
  );
}
