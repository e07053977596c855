import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { USER_SENTINEL } from "@/lib/domain/constants";
import type { QuestionView } from "@/lib/domain/questions/owner-questions";
import { QuestionForm } from "./question-form";

const ORIGIN_LABEL: Record<string, string> = {
  agent: "question",
  root_review: "completion review",
  review_escalation: "forgotten review",
  termination_escalation: "forgotten termination",
  idle_escalation: "idle agent",
  quarantine: "quarantined agent",
  autonomy: "approval request",
};

const who = (id: string, name: string | null) => (id === USER_SENTINEL ? "you" : `${name ?? "agent"} #${id}`);

/** One question as the owner sees it: chips, who asked and who passed it on and why, context, the form. */
export function QuestionCard({ view, showGoal = true }: { view: QuestionView; showGoal?: boolean }) {
  const pending = view.status === "pending";
  return (
    <article
      className="space-y-3 rounded-lg bg-white p-5 shadow-xs ring-1 ring-slate-200"
      data-testid={`question-${view.qid}`}
    >
      <header className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        {view.questions.map((q, i) =>
          q.header ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: headers may repeat
            <Badge key={i} tone="blue">
              {q.header}
            </Badge>
          ) : null,
        )}
        <Badge tone={view.origin === "agent" ? "slate" : "amber"}>
          {ORIGIN_LABEL[view.origin] ?? view.origin}
        </Badge>
        {showGoal ? (
          <Link href={`/goals/${view.goal_id}`} className="font-medium text-slate-700 hover:underline">
            {view.goal_title}
          </Link>
        ) : null}
        <span className="ml-auto">
          <LocalTime iso={view.activity_at} />
        </span>
      </header>
      <ol className="space-y-0.5 text-xs text-slate-600" data-testid="question-chain">
        <li>
          {view.origin === "agent" ? "Asked by " : "About "}
          <span className="font-medium text-slate-900">{who(view.asker.agent_id, view.asker.name)}</span>
        </li>
        {view.hops.map((h) => (
          <li key={`${h.from}-${h.at}`}>
            Passed on by <span className="font-medium text-slate-900">{who(h.from, h.from_name)}</span> to{" "}
            {who(h.to, h.to_name)}: <span className="italic">“{h.reason}”</span>
          </li>
        ))}
      </ol>
      {view.context ? (
        <p className="whitespace-pre-wrap rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {view.context}
        </p>
      ) : null}
      {pending && view.holder === USER_SENTINEL ? (
        <QuestionForm view={view} />
      ) : (
        <div className="space-y-1 text-sm">
          {view.questions.map((q, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: sub-questions are positional
            <p key={i} className="text-slate-700">
              {q.question}
            </p>
          ))}
          {view.status === "answered" ? (
            <p
              className="whitespace-pre-wrap rounded-md bg-emerald-50 px-3 py-2 text-emerald-900"
              data-testid="answer-text"
            >
              {view.answer_text}
            </p>
          ) : null}
          {view.status === "declined" ? (
            <p className="rounded-md bg-rose-50 px-3 py-2 text-rose-800">Declined: {view.decline_reason}</p>
          ) : null}
          <p className="text-xs text-slate-500">
            {view.status === "pending"
              ? `Waiting on ${who(view.holder, view.holder_name)}`
              : `${view.status === "answered" ? "Answered" : "Declined"} by ${who(view.answered_by ?? "", view.answered_by_name)}`}
            {view.answered_at ? (
              <>
                {" "}
                at <LocalTime iso={view.answered_at} />
              </>
            ) : null}
          </p>
        </div>
      )}
    </article>
  );
}
