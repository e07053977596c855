"use client";

import { useRouter } from "next/navigation";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { useEventSource } from "@/components/ui/use-event-source";
import { USER_SENTINEL } from "@/lib/domain/constants";
import type { TranscriptEntry } from "@/lib/domain/runner/transcript";

/** At most this many entries in the page: older ones are behind "Older entries" (a bounded page). */
const KEEP = 500;
/** Entries that change the header (run state, status): the server part of the page is refreshed. */
const CHANGES_HEADER =
  /^(agent_(started|completed|crashed|restart_requested|stop_requested)|terminate\.forced)$/;

const str = (v: unknown) =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
const num = (v: unknown) => (typeof v === "number" ? v : 0);

function Time({ ts }: { ts: string }) {
  return (
    <span className="ml-auto shrink-0 text-xs text-slate-400">
      <LocalTime iso={ts} mode="time" />
    </span>
  );
}

function Row({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <li className="px-5 py-2.5" data-testid={testId}>
      {children}
    </li>
  );
}

function ToolCall({ call, result }: { call: TranscriptEntry; result?: TranscriptEntry }) {
  const failed = result?.data.is_error === true;
  return (
    <Row testId="transcript-tool">
      <details className="group">
        <summary className="flex cursor-pointer items-center gap-2 text-sm">
          <Badge tone={result ? (failed ? "red" : "green") : "slate"}>
            {result ? (failed ? "tool error" : "tool") : "tool…"}
          </Badge>
          <span className="font-mono text-xs font-medium text-slate-900">{str(call.data.tool)}</span>
          <span className="truncate font-mono text-xs text-slate-500">
            {str(call.data.input).slice(0, 120)}
          </span>
          <Time ts={call.ts} />
        </summary>
        <div className="mt-2 space-y-2 pl-2">
          <pre className="max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs break-words whitespace-pre-wrap text-slate-700">
            {str(call.data.input)}
          </pre>
          {result ? (
            <pre
              className={`max-h-64 overflow-auto rounded p-2 text-xs break-words whitespace-pre-wrap ${failed ? "bg-rose-50 text-rose-800" : "bg-emerald-50 text-slate-700"}`}
              data-testid="transcript-tool-result"
            >
              {str(result.data.content)}
            </pre>
          ) : (
            <p className="text-xs text-slate-400">no result yet</p>
          )}
        </div>
      </details>
    </Row>
  );
}

function sender(m: NonNullable<TranscriptEntry["message"]>) {
  if (m.from === USER_SENTINEL) return "the owner";
  if (m.from === "system") return "the hub";
  return m.from_name ? `${m.from_name} (#${m.from})` : m.from;
}

function Entry({ e, results }: { e: TranscriptEntry; results: Map<string, TranscriptEntry> }) {
  const d = e.data;
  switch (e.event) {
    case "agent_input":
      return (
        <li className="border-l-4 border-sky-300 bg-sky-50/50 px-5 py-3" data-testid="transcript-turn">
          <div className="flex items-center gap-2 text-xs">
            <span className="font-semibold text-sky-900">Turn</span>
            <span className="text-slate-600">
              {e.message ? `message from ${sender(e.message)}` : `message ${str(d.message_id)}`}
            </span>
            {e.message ? <Badge tone="blue">{e.message.kind}</Badge> : null}
            <Time ts={e.ts} />
          </div>
          {e.message ? (
            <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">{e.message.content}</p>
          ) : null}
        </li>
      );
    case "agent_text":
      return (
        <Row testId="transcript-text">
          <div className="flex gap-2">
            <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{str(d.text)}</p>
            <Time ts={e.ts} />
          </div>
        </Row>
      );
    case "agent_output":
      return (
        <Row testId="transcript-output">
          <div className="flex gap-2">
            <span
              className={`font-mono text-xs ${d.stream === "stderr" ? "text-rose-600" : "text-slate-400"}`}
            >
              {str(d.stream)}
            </span>
            <code className="text-xs break-all whitespace-pre-wrap text-slate-800">{str(d.line)}</code>
            <Time ts={e.ts} />
          </div>
        </Row>
      );
    case "tool_called":
      return <ToolCall call={e} result={results.get(str(d.tool_use_id))} />;
    case "tool_result":
      // Shown inside its call; alone only when the call is not on this page.
      return (
        <Row testId="transcript-tool-result">
          <div className="flex gap-2 text-xs">
            <Badge tone={d.is_error ? "red" : "green"}>result</Badge>
            <code className="break-all whitespace-pre-wrap text-slate-700">
              {str(d.content).slice(0, 500)}
            </code>
            <Time ts={e.ts} />
          </div>
        </Row>
      );
    case "tool_denied":
    case "ask_user_question.redirected":
    case "disallowed_alias.denied":
      return (
        <Row testId="transcript-denied">
          <div className="flex gap-2 text-xs">
            <Badge tone="amber">denied</Badge>
            <span className="font-mono text-slate-900">{str(d.tool)}</span>
            <span className="text-slate-600">{str(d.reason)}</span>
            <Time ts={e.ts} />
          </div>
        </Row>
      );
    case "turn.usage":
      return (
        <li
          className="flex items-center gap-2 border-b-2 border-slate-200 px-5 py-1.5 text-xs text-slate-500"
          data-testid="transcript-usage"
        >
          <span>turn ended · {str(d.model)}</span>
          <span className="tabular-nums">
            in {num(d.input_tokens).toLocaleString()} · out {num(d.output_tokens).toLocaleString()} · cache{" "}
            {(num(d.cache_read_tokens) + num(d.cache_write_tokens)).toLocaleString()}
            {typeof d.cost_usd === "number" ? ` · $${d.cost_usd.toFixed(4)}` : ""}
          </span>
          <Time ts={e.ts} />
        </li>
      );
    default: {
      const label = e.event.replace(/^agent_/, "").replaceAll("_", " ");
      const tone = e.event === "agent_crashed" || e.event === "terminate.forced" ? "red" : "slate";
      const detail = [
        d.reason,
        d.runtime,
        d.error,
        d.exit_code !== undefined && d.exit_code !== null ? `exit ${d.exit_code}` : "",
        d.restart_in_ms ? `restart in ${d.restart_in_ms} ms` : "",
      ]
        .map(str)
        .filter(Boolean)
        .join(" · ");
      return (
        <Row testId="transcript-run">
          <div className="flex items-center gap-2 text-xs">
            <Badge tone={tone}>{label}</Badge>
            {d.launch !== undefined ? <span className="text-slate-500">launch {str(d.launch)}</span> : null}
            <span className="text-slate-600">{detail}</span>
            <Time ts={e.ts} />
          </div>
        </Row>
      );
    }
  }
}

/**
 * An agent's transcript, newest at the bottom, live: the server renders the newest page, then the
 * transcript's SSE stream (`…/transcript/stream`, woken by the goal's bus topic like the goal stream) adds
 * what is recorded after it. At most KEEP entries are kept; `live` false renders an older page as is.
 */
export function TranscriptView(props: {
  goalId: number;
  agentId: number;
  entries: TranscriptEntry[];
  cursor: number;
  live: boolean;
}) {
  const router = useRouter();
  const [entries, setEntries] = useState(props.entries);
  const cursor = useRef(props.cursor);
  const refresh = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(refresh.current), []);
  const connected = useEventSource(
    props.live ? `${props.goalId}:${props.agentId}` : "off",
    () =>
      props.live
        ? `/api/goals/${props.goalId}/agents/${props.agentId}/transcript/stream?after=${cursor.current}`
        : null,
    {
      entry: (data) => {
        const e = JSON.parse(data) as TranscriptEntry;
        if (e.seq <= cursor.current) return;
        cursor.current = e.seq;
        setEntries((prev) => [...prev, e].slice(-KEEP));
        if (CHANGES_HEADER.test(e.event) && refresh.current === undefined) {
          refresh.current = setTimeout(() => {
            refresh.current = undefined;
            router.refresh();
          }, 300);
        }
      },
    },
  );
  const box = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  const last = entries.at(-1)?.seq;
  useLayoutEffect(() => {
    if (last !== undefined && atBottom.current && box.current)
      box.current.scrollTop = box.current.scrollHeight;
  }, [last]);

  const results = new Map<string, TranscriptEntry>();
  const calls = new Set<string>();
  for (const e of entries) {
    if (e.event === "tool_result") results.set(str(e.data.tool_use_id), e);
    if (e.event === "tool_called") calls.add(str(e.data.tool_use_id));
  }
  const shown = entries.filter((e) => e.event !== "tool_result" || !calls.has(str(e.data.tool_use_id)));
  return (
    <div>
      {props.live ? (
        <div className="flex justify-end px-5 pt-2">
          <span className="flex items-center gap-1.5 text-xs text-slate-500" data-testid="transcript-live">
            <span
              className={`size-2 rounded-full ${connected ? "animate-pulse bg-emerald-500" : "bg-slate-300"}`}
            />
            {connected ? "live" : "connecting…"}
          </span>
        </div>
      ) : null}
      {shown.length === 0 ? (
        <p className="px-5 py-10 text-center text-sm text-slate-500" data-testid="transcript-empty">
          Nothing recorded yet: the transcript starts when a runner launches the agent.
        </p>
      ) : (
        <ol
          ref={box}
          onScroll={(ev) => {
            const el = ev.currentTarget;
            atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
          }}
          className="max-h-[48rem] divide-y divide-slate-100 overflow-y-auto"
          data-testid="transcript"
        >
          {shown.map((e) => (
            <Entry key={e.seq} e={e} results={results} />
          ))}
        </ol>
      )}
    </div>
  );
}
