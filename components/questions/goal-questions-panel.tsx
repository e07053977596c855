import { Panel } from "@/components/ui/panel";
import { listOwnerQuestions } from "@/lib/domain/questions/owner-questions";
import { QuestionCard } from "./question-card";

/** The goal's questions waiting for the owner, answerable in place; refreshed by the goal page's stream. */
export async function GoalQuestionsPanel({ ownerId, goalId }: { ownerId: number; goalId: number }) {
  const pending = await listOwnerQuestions(ownerId, { status: "pending", goalId });
  return (
    <Panel title={`Questions for you (${pending.length})`}>
      <div className="space-y-4 p-5" data-testid="goal-questions">
        {pending.length === 0 ? (
          <p className="text-sm text-slate-500">No question is waiting for you in this goal.</p>
        ) : (
          pending.map((q) => <QuestionCard key={q.qid} view={q} showGoal={false} />)
        )}
      </div>
    </Panel>
  );
}
