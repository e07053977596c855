// The owner's inbox: questions waiting for the owner across their goals, newest activity first, live,
// filtered by goal and kind and paged (the count shown is the filter's, the nav badge the unfiltered one);
// the credentials agents asked for (answerable in place); and the history of answered and declined questions.
import type { Metadata } from "next";
import Link from "next/link";
import { QuestionCard } from "@/components/questions/question-card";
import { QuestionsLive } from "@/components/questions/questions-live";
import { OpenRequestsPanel } from "@/components/secrets/open-requests-panel";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import {
  countOwnerQuestions,
  listOwnerQuestions,
  ownerPendingFacets,
  QUESTION_KINDS,
  type QuestionKind,
} from "@/lib/domain/questions/owner-questions";

export const metadata: Metadata = { title: "Questions · Switchboard" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;
const KIND_LABELS: Record<QuestionKind, string> = {
  agent: "From agents",
  review: "Reviews",
  watchdog: "Watchdog",
  quarantine: "Quarantine",
  budget: "Budget",
};

type Search = { goal?: string; kind?: string; page?: string };

export default async function QuestionsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const owner = await requireOwner();
  const sp = await searchParams;
  const goalId = sp.goal && /^\d{1,9}$/.test(sp.goal) ? Number(sp.goal) : undefined;
  const kind = sp.kind && Object.hasOwn(QUESTION_KINDS, sp.kind) ? (sp.kind as QuestionKind) : undefined;
  const filter = { status: "pending" as const, goalId, kind };
  const total = await countOwnerQuestions(owner.userId, filter);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number(sp.page) || 1));
  const [pending, allPending, facets, inChain, history] = await Promise.all([
    listOwnerQuestions(owner.userId, { ...filter, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    countOwnerQuestions(owner.userId, { status: "pending" }),
    ownerPendingFacets(owner.userId),
    listOwnerQuestions(owner.userId, { status: "in_chain", goalId, kind, limit: 50 }),
    listOwnerQuestions(owner.userId, { status: "closed", goalId, kind, limit: 50 }),
  ]);
  const href = (o: Search) => {
    const params = new URLSearchParams();
    const merged = { goal: sp.goal, kind: sp.kind, ...o };
    for (const [k, v] of Object.entries(merged)) if (v) params.set(k, v);
    const qs = params.toString();
    return qs ? `/questions?${qs}` : "/questions";
  };
  const chip = (active: boolean) =>
    `rounded-full px-3 py-1 text-xs font-medium ring-1 ${
      active
        ? "bg-slate-900 text-white ring-slate-900"
        : "bg-white text-slate-700 ring-slate-200 hover:bg-slate-50"
    }`;
  const filtered = goalId !== undefined || kind !== undefined;
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold text-slate-900">
          Questions{" "}
          <span className="text-base font-normal text-slate-500" data-testid="questions-count">
            {filtered ? `${total} of ${allPending} waiting` : `${total} waiting`}
          </span>
        </h1>
        <QuestionsLive initialPending={pending.map((q) => q.qid)} initialCount={allPending} />
      </div>
      {allPending > 0 ? (
        <nav className="space-y-2" aria-label="Filter questions" data-testid="question-filters">
          <div className="flex flex-wrap gap-2">
            <Link href={href({ kind: undefined, page: undefined })} className={chip(kind === undefined)}>
              All kinds
            </Link>
            {(Object.keys(KIND_LABELS) as QuestionKind[]).map((k) => (
              <Link key={k} href={href({ kind: k, page: undefined })} className={chip(kind === k)}>
                {KIND_LABELS[k]} ({facets.byKind.get(k) ?? 0})
              </Link>
            ))}
          </div>
          {facets.goals.length > 1 || goalId !== undefined ? (
            <div className="flex flex-wrap gap-2">
              <Link href={href({ goal: undefined, page: undefined })} className={chip(goalId === undefined)}>
                All goals
              </Link>
              {facets.goals.map((g) => (
                <Link
                  key={g.id}
                  href={href({ goal: String(g.id), page: undefined })}
                  className={chip(goalId === g.id)}
                >
                  {g.title} ({g.pending})
                </Link>
              ))}
            </div>
          ) : null}
        </nav>
      ) : null}
      <section className="space-y-4" data-testid="pending-questions">
        {pending.length === 0 ? (
          <p className="rounded-lg bg-white p-5 text-sm text-slate-500 ring-1 ring-slate-200">
            {filtered
              ? "Nothing matches these filters."
              : "Nothing is waiting for you. Questions your agents escalate to you appear here the moment they arrive."}
          </p>
        ) : (
          pending.map((q) => <QuestionCard key={q.qid} view={q} />)
        )}
      </section>
      {pages > 1 ? (
        <nav
          className="flex items-center justify-between text-sm text-slate-600"
          data-testid="questions-pager"
        >
          <span>
            {(page - 1) * PAGE_SIZE + 1}–{Math.min(total, page * PAGE_SIZE)} of {total}
          </span>
          <span className="flex gap-2">
            {page > 1 ? (
              <Link className={chip(false)} href={href({ page: String(page - 1) })}>
                Newer
              </Link>
            ) : null}
            {page < pages ? (
              <Link className={chip(false)} href={href({ page: String(page + 1) })}>
                Older
              </Link>
            ) : null}
          </span>
        </nav>
      ) : null}
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
