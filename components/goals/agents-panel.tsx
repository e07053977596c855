"use client";

import { useState, useTransition } from "react";
import { issueKeyAction, unquarantineAction } from "@/app/goals/[id]/actions";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";
import type { listGoalAgents } from "@/lib/domain/agents/agents";
import { AgentKeyNotice } from "./agent-key-notice";
import { ReputationHistory } from "./reputation-history";

export type AgentRow = Awaited<ReturnType<typeof listGoalAgents>>[number] & { leader_label: string };

export function AgentsPanel({ agents }: { agents: AgentRow[] }) {
  const [issued, setIssued] = useState<{ name: string; key: string }>();
  const [error, setError] = useState<string>();
  const [pendingId, setPendingId] = useState<number>();
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

  return (
    <Panel title={`Agents (${agents.length})`}>
      {issued ? (
        <AgentKeyNotice agentName={issued.name} apiKey={issued.key} onDismiss={() => setIssued(undefined)} />
      ) : null}
      {error ? (
        <div className="px-5 pt-4">
          <FormError message={error} />
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <TableHead
            columns={[
              "ID",
              "Name",
              "Role",
              "Leader",
              "Depth",
              "Status",
              "Reputation",
              "Run",
              "Active keys",
              "",
            ]}
          />
          <tbody className="divide-y divide-slate-100">
            {agents.map((a) => (
              <tr key={a.agent_id} id={`agent-${a.agent_id}`} data-testid={`agent-${a.agent_id}`}>
                <td className="px-5 py-2.5 font-mono text-xs text-slate-500">#{a.agent_id}</td>
                <td className="px-5 py-2.5 font-medium text-slate-900">{a.name}</td>
                <td className="px-5 py-2.5 text-slate-600">{a.role}</td>
                <td className="px-5 py-2.5 text-slate-600">{a.leader_label}</td>
                <td className="px-5 py-2.5 tabular-nums text-slate-600">{a.spawn_depth}</td>
                <td className="px-5 py-2.5">
                  {a.status === "quarantined" ? (
                    <span data-testid="quarantined">
                      <StatusBadge status={a.status} />
                    </span>
                  ) : (
                    <StatusBadge status={a.status} />
                  )}
                  {a.quarantined && a.status !== "quarantined" ? (
                    <span className="ml-1" data-testid="quarantined">
                      <Badge tone="red">quarantined</Badge>
                    </span>
                  ) : null}
                </td>
                <td className="px-5 py-2.5 tabular-nums text-slate-600">
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
                <td
                  className="px-5 py-2.5 text-slate-600"
                  data-testid="run-state"
                  title={
                    a.run_state ? "started by a runner (docs/runner.md)" : "runs elsewhere, with its own key"
                  }
                >
                  {a.run_state ?? "external"}
                </td>
                <td className="px-5 py-2.5 tabular-nums text-slate-600" data-testid="active-keys">
                  {a.active_keys}
                </td>
                <td className="space-x-2 px-5 py-2.5 text-right whitespace-nowrap">
                  {a.quarantined ? (
                    <Button size="sm" disabled={pendingId !== undefined} onClick={() => lift(a)}>
                      {pendingId === a.agent_id ? "Lifting…" : "Lift quarantine"}
                    </Button>
                  ) : null}
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={pendingId !== undefined}
                    onClick={() => newKey(a)}
                  >
                    {pendingId === a.agent_id ? "Issuing…" : "New API key"}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
