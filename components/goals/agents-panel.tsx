"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { issueKeyAction, unquarantineAction } from "@/app/goals/[id]/actions";
import { RunControls, RunStateBadge } from "@/components/runner/run-controls";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";
import type { listGoalAgents } from "@/lib/domain/agents/agents";
import { AgentKeyNotice } from "./agent-key-notice";
import { ReputationHistory } from "./reputation-history";

/**
 * One row per agent, in team-tree order (the owner, the coordinator, each leader followed by its members,
 * indented by nesting level): who it is, where it sits, its status and run state, and what the owner can
 * do. One view instead of a table and a tree that repeated each other; a filter by run state keeps 30+
 * agents readable.
 */
export type AgentRow = Awaited<ReturnType<typeof listGoalAgents>>[number] & {
  leader_label: string;
  /** Nesting level in the team tree (0: under the owner). */
  level: number;
  flags: string[];
  is_leader: boolean;
  plan_task_id: string | null;
  is_coordinator: boolean;
};

const runKey = (a: AgentRow) => a.run_state ?? "external";
const FILTER_ORDER = ["running", "starting", "queued", "backoff", "stopped", "crashed", "exited", "external"];

export function AgentsPanel({ goalId, agents }: { goalId: number; agents: AgentRow[] }) {
  const [issued, setIssued] = useState<{ name: string; key: string }>();
  const [error, setError] = useState<string>();
  const [pendingId, setPendingId] = useState<number>();
  const [filter, setFilter] = useState<string>();
  const [, startTransition] = useTransition();

  const newKey = (agent: AgentRow) => {
    setPendingId(agent.agent_id);
    startTransition(async () => {
      const result = await issueKeyAction(agent.agent_id);
      setPendingId(undefined);
      if ("error" in result) {
        setError(result.error);
      } else {
        setError(undefined);
        setIssued({ name: agent.name, key: result.api_key });
      }
    });
  };

  const lift = (agent: AgentRow) => {
    setPendingId(agent.agent_id);
    startTransition(async () => {
      const result = await unquarantineAction(agent.agent_id);
      setPendingId(undefined);
      setError(result.error);
    });
  };

  const counts = new Map<string, number>();
  for (const a of agents) counts.set(runKey(a), (counts.get(runKey(a)) ?? 0) + 1);
  const states = FILTER_ORDER.filter((s) => counts.has(s));
  const shown = filter ? agents.filter((a) => runKey(a) === filter) : agents;

  return (
    <Panel
      title={`Agents (${agents.length})`}
      actions={
        states.length > 1 ? (
          <div className="flex flex-wrap items-center gap-1 text-xs" data-testid="run-state-filter">
            <FilterChip active={filter === undefined} onClick={() => setFilter(undefined)}>
              all {agents.length}
            </FilterChip>
            {states.map((s) => (
              <FilterChip
                key={s}
                active={filter === s}
                onClick={() => setFilter(filter === s ? undefined : s)}
              >
                {s} {counts.get(s)}
              </FilterChip>
            ))}
          </div>
        ) : null
      }
    >
      {issued ? (
        <AgentKeyNotice agentName={issued.name} apiKey={issued.key} onDismiss={() => setIssued(undefined)} />
      ) : null}
      {error ? (
        <div className="px-5 pt-4">
          <FormError message={error} />
        </div>
      ) : null}
      <div className="overflow-x-auto" data-testid="team-tree">
        <table className="min-w-full text-sm">
          <TableHead columns={["Agent", "Leader", "Status", "Run", "Reputation", "Keys", ""]} />
          <tbody className="divide-y divide-slate-100">
            {shown.map((a) => (
              <tr
                key={a.agent_id}
                id={`agent-${a.agent_id}`}
                data-testid={`agent-${a.agent_id}`}
                data-status={a.status}
                className="align-top"
              >
                <td className="py-2 pr-5" style={{ paddingLeft: `${1.25 + Math.min(a.level, 8) * 1.25}rem` }}>
                  <div className={a.level > 0 ? "border-l-2 border-slate-200 pl-2" : ""}>
                    <div className="flex flex-wrap items-center gap-x-2">
                      <Link
                        href={`/goals/${goalId}/agents/${a.agent_id}`}
                        className="font-medium text-slate-900 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900"
                        title="Transcript"
                      >
                        {a.name}
                      </Link>
                      <span className="font-mono text-xs text-slate-400">#{a.agent_id}</span>
                      {a.is_leader ? <Badge tone="blue">leader</Badge> : null}
                    </div>
                    <div className="text-xs text-slate-500">
                      {a.role}
                      {a.skill && a.skill !== a.role ? ` · ${a.skill}` : ""} · depth {a.spawn_depth}
                      {a.plan_task_id ? ` · task ${a.plan_task_id}` : ""}
                    </div>
                  </div>
                </td>
                <td className="px-5 py-2 text-slate-600">{a.leader_label}</td>
                <td className="px-5 py-2">
                  <div className="flex flex-wrap gap-1">
                    {a.status === "quarantined" ? (
                      <span data-testid="quarantined">
                        <StatusBadge status={a.status} />
                      </span>
                    ) : (
                      <StatusBadge status={a.status} />
                    )}
                    {a.flags
                      .filter((f) => f !== a.status && f !== "terminate_consumed" && f !== "quarantined")
                      .map((f) => (
                        <Badge key={f} tone="amber">
                          {f.replaceAll("_", " ")}
                        </Badge>
                      ))}
                    {a.quarantined && a.status !== "quarantined" ? (
                      <span data-testid="quarantined">
                        <Badge tone="red">quarantined</Badge>
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="px-5 py-2">
                  <RunStateBadge runState={a.run_state} />
                </td>
                <td className="px-5 py-2 tabular-nums text-slate-600">
                  <span
                    data-testid="reputation"
                    title={
                      a.reputation.domains.length
                        ? a.reputation.domains
                            .map((d) => `${d.domain}: ${d.score.toFixed(2)} (${d.evidence} evidence)`)
                            .join("\n")
                        : "no evidence yet (0.5)"
                    }
                  >
                    {a.reputation.score.toFixed(2)}
                    <span className="ml-1 text-xs text-slate-400">({a.reputation.evidence})</span>
                  </span>
                  <ReputationHistory history={a.reputation.history} />
                </td>
                <td className="px-5 py-2 tabular-nums text-slate-600" data-testid="active-keys">
                  <Link
                    href={`/goals/${goalId}/agents/${a.agent_id}#keys`}
                    className="underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900"
                    title="See and revoke this agent's keys"
                  >
                    {a.active_keys}
                  </Link>
                </td>
                <td className="px-5 py-2 text-right whitespace-nowrap">
                  <span className="inline-flex items-center gap-2">
                    <RunControls
                      agentId={a.agent_id}
                      agentName={a.name}
                      runState={a.run_state}
                      status={a.status}
                      terminate={a.run_state === "crashed" && !a.is_coordinator}
                    />
                    {a.quarantined ? (
                      <Button size="sm" disabled={pendingId !== undefined} onClick={() => lift(a)}>
                        {pendingId === a.agent_id ? "Lifting…" : "Lift quarantine"}
                      </Button>
                    ) : null}
                    {a.status === "terminated" ? null : (
                      <Button
                        variant="secondary"
                        size="sm"
                        disabled={pendingId !== undefined}
                        onClick={() => newKey(a)}
                        title={
                          a.run_state
                            ? "A runner issues a fresh key at each launch, which revokes this one"
                            : "A key to run this agent yourself"
                        }
                      >
                        {pendingId === a.agent_id ? "Issuing…" : "New API key"}
                      </Button>
                    )}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

function FilterChip(props: { active: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={props.onClick}
      aria-pressed={props.active}
      className={`rounded-full px-2 py-0.5 ring-1 ring-inset ${props.active ? "bg-slate-900 text-white ring-slate-900" : "bg-white text-slate-600 ring-slate-200 hover:bg-slate-50"}`}
    >
      {props.children}
    </button>
  );
}
