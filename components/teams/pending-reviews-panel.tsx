// Goal page: reviews waiting for a leader, oldest first, with their age.
import { Panel } from "@/components/ui/panel";
import { Age } from "./age";
import { teamView } from "./team-view";

export async function PendingReviewsPanel({ goalId }: { goalId: number }) {
  const { reviews } = await teamView(goalId);
  return (
    <Panel title={`Pending reviews (${reviews.length})`}>
      {reviews.length === 0 ? (
        <p className="px-5 py-6 text-center text-sm text-slate-500">No review is waiting.</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="pending-reviews">
          {reviews.map((r) => (
            <li key={r.agent_id} className="px-5 py-2.5 text-sm" data-testid={`review-${r.agent_id}`}>
              <div className="flex items-center gap-2">
                <span className="font-medium text-slate-900">{r.name}</span>
                <span className="text-xs text-slate-500">→ {r.leader}</span>
                <span className="ml-auto text-xs text-amber-700">
                  waiting <Age since={r.since} />
                </span>
              </div>
              <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{r.summary}</p>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
