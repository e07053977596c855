// The owner's inbox: every question waiting for the owner across their goals, newest activity first, the
// credentials agents asked for (answerable in place), live; and the history of answered and declined questions.
import type { Metadata } from "next";
import { QuestionCard } from "@/components/questions/question-card";
import { QuestionsLive } from "@/components/questions/questions-live";
import { OpenRequestsPanel } from "@/components/secrets/open-requests-panel";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listOwnerQuestions } from "@/lib/domain/questions/owner-questions";

export const metadata: Metadata = { title: "Questions · Switchboard" };
export const dynamic = "force-dynamic";

export default async function QuestionsPage() {
  const owner = await requireOwner();
  const [pending, inChain, history] = await Promise.all([
    listOwnerQuestions(owner.userId, { status: "pending" }),
    listOwnerQuestions(owner.userId, { status: "in_chain", limit: 50 }),
    listOwnerQuestions(owner.userId, { status: "closed", limit: 50 }),
  ]);
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold text-slate-900">Questions</h1>
        <QuestionsLive initialPending={pending.map((q) => q.qid)} />
      </div>
      <section className="space-y-4" data-testid="pending-questions">
        {pending.length === 0 ? (
          <p className="rounded-lg bg-white p-5 text-sm text-slate-500 ring-1 ring-slate-200">
            Nothing is waiting for you. Questions your agents escalate to you appear here the moment they
            arrive.
          </p>
        ) : (
          pending.map((q) => <QuestionCard key={q.qid} view={q} />)
        )}
      </section>
      <OpenRequestsPanel ownerId={owner.userId} />
      {inChain.length > 0 ? (
        <Panel title={`Still with your agents (${inChain.length})`}>
          <div className="space-y-4 p-5" data-testid="questions-in-chain">
            {inChain.map((q) => (
              <QuestionCard key={q.qid} view={q} />
            ))}
          </div>
        </Panel>
      ) : null}
      <Panel title={`History (${history.length})`}>
        <div className="space-y-4 p-5" data-testid="question-history">
          {history.length === 0 ? (
            <p className="text-sm text-slate-500">No answered questions yet.</p>
          ) : (
            history.map((q) => <QuestionCard key={q.qid} view={q} />)
          )}
        </div>
      </Panel>
    </div>
  );
}
