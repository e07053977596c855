// An agent's transcript (issue 11 §4): its turns, what it said, each tool call and result, live; and its
// Stop / Restart / Terminate. `?before=SEQ` shows an older page (not live).
import Link from "next/link";
import { notFound } from "next/navigation";
import { AgentKeys } from "@/components/goals/agent-keys";
import { RunControls, RunStateBadge } from "@/components/runner/run-controls";
import { TranscriptView } from "@/components/runner/transcript-view";
import { StatusBadge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listAgentKeys } from "@/lib/domain/agents/keys";
import { getOwnedGoal } from "@/lib/domain/goals/queries";
import { transcriptAgent, transcriptEntries, transcriptQuery } from "@/lib/domain/runner/transcript";
import { isDomainError } from "@/lib/errors";
import { idParam } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

const PAGE = 200;

export default async function AgentTranscriptPage(props: {
  params: Promise<{ id: string; agentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const owner = await requireOwner();
  const params = await props.params;
  const search = await props.searchParams;
  const before =
    typeof search.before === "string" && /^\d{1,10}$/.test(search.before) && search.before !== "0"
      ? search.before
      : undefined;
  let data: Awaited<ReturnType<typeof load>>;
  try {
    data = await load(owner.userId, params.id, params.agentId, before);
  } catch (e) {
    if (isDomainError(e) && e.code === "not_found") notFound();
    throw e;
  }
  const { goal, agent, page, older, keys } = data;
  const base = `/goals/${goal.id}/agents/${agent.agent_id}`;
  return (
    <div className="space-y-6">
      <header className="rounded-lg bg-white p-6 shadow-xs ring-1 ring-slate-200" data-testid="agent-header">
        <Link href={`/goals/${goal.id}`} className="text-sm text-slate-500 hover:text-slate-900">
          ← {goal.title}
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{agent.name}</h1>
          <span className="font-mono text-sm text-slate-500">#{agent.agent_id}</span>
          <span className="text-sm text-slate-600">{agent.role}</span>
          <StatusBadge status={agent.status} />
          <RunStateBadge runState={agent.run_state} />
          {agent.quarantined ? <StatusBadge status="quarantined" /> : null}
          <span className="ml-auto">
            <RunControls
              agentId={agent.agent_id}
              agentName={agent.name}
              runState={agent.run_state}
              status={agent.status}
              terminate={
                goal.coordinatorAgentId !== agent.agent_id &&
                (agent.run_state === "crashed" || agent.run_state === "stopped")
              }
            />
          </span>
        </div>
        <p className="mt-2 text-xs text-slate-500" data-testid="agent-run-info">
          {agent.run_state === null
            ? "Runs elsewhere with its own key: no runner records its turns."
            : `${agent.launches} launch${agent.launches === 1 ? "" : "es"}${agent.runner ? ` · last runner ${agent.runner}` : ""}${agent.crashes_in_a_row ? ` · ${agent.crashes_in_a_row} crash(es) in a row` : ""}`}
        </p>
      </header>
      <Panel
        title="Transcript"
        actions={
          <span className="flex gap-3 text-xs">
            {older !== null ? (
              <Link href={`${base}?before=${older}`} className="text-slate-600 underline">
                Older entries
              </Link>
            ) : null}
            {before ? (
              <Link href={base} className="text-slate-600 underline">
                Newest
              </Link>
            ) : null}
          </span>
        }
      >
        <TranscriptView
          key={before ?? "live"}
          goalId={goal.id}
          agentId={agent.agent_id}
          entries={page.entries}
          cursor={page.next_cursor}
          live={!before}
        />
      </Panel>
      <div id="keys">
        <Panel title={`API keys (${keys.filter((k) => !k.revoked_at).length} active)`}>
          <AgentKeys agentId={agent.agent_id} keys={keys} />
        </Panel>
      </div>
    </div>
  );
}

async function load(ownerId: number, rawGoal: string, rawAgent: string, before: string | undefined) {
  const goal = await getOwnedGoal(ownerId, idParam(rawGoal, "goal"));
  const agent = await transcriptAgent(ownerId, goal.id, idParam(rawAgent, "agent"));
  const q = transcriptQuery.parse({ before, limit: PAGE });
  const page = await transcriptEntries(goal.id, agent.agent_id, q);
  const keys = await listAgentKeys(ownerId, agent.agent_id);
  return { goal, agent, page, older: page.older_cursor, keys };
}
