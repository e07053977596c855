// Issue 13: the goal's lifecycle on its page — the stuck banner (with the failed tasks to write off) and
// Cancel goal. A server component: it reads what it shows itself, so the page only places it.
import { goalLifecycleView } from "@/lib/domain/goals/lifecycle";
import { GoalCancelControl, WriteOffButton } from "./goal-lifecycle-controls";

export async function GoalLifecycle({ goalId }: { goalId: number }) {
  const { goal, failed } = await goalLifecycleView(goalId);
  if (!goal) return null;
  if (goal.status === "cancelled") {
    return (
      <div
        className="rounded-lg bg-rose-50 p-4 text-sm text-rose-900 ring-1 ring-rose-200"
        data-testid="goal-cancelled-banner"
      >
        This goal is cancelled: its tasks are cancelled and its agents were told to stop.
      </div>
    );
  }
  if (goal.status === "completed") return null;
  return (
    <div className="space-y-3">
      {goal.status === "stuck" ? (
        <div
          className="rounded-lg bg-rose-50 p-4 text-sm text-rose-900 ring-1 ring-rose-200"
          role="alert"
          data-testid="goal-stuck-banner"
        >
          <p className="font-medium">This goal is stuck.</p>
          <p className="mt-1">
            Only failed tasks remain open: nothing can be claimed, worked on or verified. Write off the failed
            tasks (the goal completes when nothing else is open), approve a new task tree from the
            coordinator, or cancel the goal.
          </p>
          <ul className="mt-2 space-y-1">
            {failed.map((t) => (
              <li key={t.id} className="flex items-center gap-2" data-testid={`failed-task-${t.id}`}>
                <span className="font-mono text-xs">#{t.id}</span>
                <span>{t.title}</span>
                {t.verdictReason ? (
                  <span className="text-rose-700">({t.verdictReason.slice(0, 120)})</span>
                ) : null}
                <WriteOffButton goalId={goalId} taskId={t.id} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <GoalCancelControl goalId={goalId} />
    </div>
  );
}
