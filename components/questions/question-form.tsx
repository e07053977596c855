"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";
import type { QuestionView } from "@/lib/domain/questions/owner-questions";
import type { SubQuestion } from "@/lib/domain/questions/schemas";
import { answerBody, type Draft, declinable, OTHER } from "./answer-draft";

async function post(path: string, body: unknown): Promise<string | undefined> {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (r.ok) return undefined;
  const j = (await r.json().catch(() => ({}))) as { error?: { message?: string } };
  return j.error?.message ?? `Failed (${r.status})`;
}

function SubQuestionInput(props: {
  q: SubQuestion;
  index: number;
  draft: Draft;
  allowOther: boolean;
  onChange: (d: Draft) => void;
}) {
  const { q, index, draft, onChange } = props;
  const name = `${useId()}-q${index}`;
  const toggle = (label: string) => {
    if (!q.multiSelect) return onChange({ ...draft, selected: [label] });
    const selected = draft.selected.includes(label)
      ? draft.selected.filter((l) => l !== label)
      : [...draft.selected, label];
    onChange({ ...draft, selected });
  };
  const showText =
    q.options.length === 0 ||
    draft.selected.includes(OTHER) ||
    q.options.some((o) => o.requires_text && draft.selected.includes(o.label));
  return (
    <fieldset className="space-y-2" data-testid={`subquestion-${index}`}>
      <legend className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
        {q.header ? (
          <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">
            {q.header}
          </span>
        ) : null}
        <span>{q.question}</span>
        <span className="text-xs font-normal text-slate-500">
          {q.options.length === 0 ? "free text" : q.multiSelect ? "choose any" : "choose one"}
        </span>
      </legend>
      {q.options.map((o) => (
        <label
          key={o.label}
          className="flex cursor-pointer items-start gap-2 rounded-md px-2 py-1.5 ring-1 ring-slate-200 hover:bg-slate-50"
        >
          <input
            type={q.multiSelect ? "checkbox" : "radio"}
            name={name}
            value={o.label}
            checked={draft.selected.includes(o.label)}
            onChange={() => toggle(o.label)}
            className="mt-0.5"
          />
          <span>
            <span className="block text-sm font-medium text-slate-900">{o.label}</span>
            {o.description ? <span className="block text-xs text-slate-500">{o.description}</span> : null}
          </span>
        </label>
      ))}
      {q.options.length > 0 && !q.multiSelect && props.allowOther ? (
        <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 ring-1 ring-slate-200 hover:bg-slate-50">
          <input
            type="radio"
            name={name}
            value={OTHER}
            checked={draft.selected.includes(OTHER)}
            onChange={() => toggle(OTHER)}
          />
          <span className="text-sm font-medium text-slate-900">Other…</span>
        </label>
      ) : null}
      {showText ? (
        <textarea
          aria-label={`Answer to ${q.header || q.question}`}
          required
          rows={2}
          value={draft.text}
          onChange={(e) => onChange({ ...draft, text: e.target.value })}
          className={inputClass}
          placeholder={q.options.length === 0 ? "Your answer" : "Say more (required)"}
        />
      ) : null}
    </fieldset>
  );
}

/** Answer (every sub-question) or decline (with a reason) a question the owner holds. */
export function QuestionForm({ view }: { view: QuestionView }) {
  const router = useRouter();
  const [drafts, setDrafts] = useState<Draft[]>(view.questions.map(() => ({ selected: [], text: "" })));
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // The server's own checks (REST schema + domain answer check) decide whether the answer can be sent.
  const answer = answerBody(view.questions, drafts);
  const blocker = "blocker" in answer ? answer.blocker : undefined;

  const submit = async (path: string, body: unknown) => {
    setBusy(true);
    setError(await post(path, body));
    setBusy(false);
    router.refresh();
  };

  return (
    <div className="space-y-4">
      {view.questions.map((q, i) => (
        <SubQuestionInput
          // biome-ignore lint/suspicious/noArrayIndexKey: sub-questions are positional
          key={i}
          q={q}
          index={i}
          draft={drafts[i] ?? { selected: [], text: "" }}
          allowOther={view.origin === "agent"}
          onChange={(d) => setDrafts((prev) => prev.map((x, j) => (j === i ? d : x)))}
        />
      ))}
      <FormError message={error} />
      {declining ? (
        <div className="flex flex-wrap items-center gap-2">
          <input
            aria-label="Reason for declining"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className={`${inputClass} max-w-md`}
            placeholder="Why you will not answer"
          />
          <Button
            variant="danger"
            disabled={busy || !declinable(reason)}
            onClick={() => submit(`/api/questions/${view.qid}/decline`, { reason })}
          >
            Confirm decline
          </Button>
          <Button variant="secondary" onClick={() => setDeclining(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex items-center gap-2">
          <Button
            disabled={busy || blocker !== undefined}
            title={blocker}
            onClick={() => "body" in answer && submit(`/api/questions/${view.qid}/answer`, answer.body)}
          >
            {busy ? "Sending…" : "Answer"}
          </Button>
          <Button variant="secondary" onClick={() => setDeclining(true)}>
            Decline…
          </Button>
          {blocker !== undefined ? <span className="text-xs text-slate-500">{blocker}</span> : null}
        </div>
      )}
    </div>
  );
}
