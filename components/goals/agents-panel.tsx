"use client";

import { useState, useTransition } from "react";
import { issueKeyAction } from "@/app/goals/[id]/actions";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";
import type { listGoalAgents } from "@/lib/domain/agents/agents";
import { AgentKeyNotice } from "./agent-key-notice";

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
          <TableHead columns={["ID", "Name", "Role", "Leader", "Depth", "Status", "Active keys", ""]} />
          <tbody className="divide-y divide-slate-100">
            {agents.map((a) => (
              <tr key={a.agent_id} id={`agent-${a.agent_id}`} data-testid={`agent-${a.agent_id}`}>
                <td className="px-5 py-2.5 font-mono text-xs text-slate-500">#{a.agent_id}</td>
                <td className="px-5 py-2.5 font-medium text-slate-900">{a.name}</td>
                <td className="px-5 py-2.5 text-slate-600">{a.role}</td>
                <td className="px-5 py-2.5 text-slate-600">{a.leader_label}</td>
                <td className="px-5 py-2.5 tabular-nums text-slate-600">{a.spawn_depth}</td>
                <td className="px-5 py-2.5">
                  <StatusBadge status={a.status} />
                </td>
                <td className="px-5 py-2.5 tabular-nums text-slate-600">{a.active_keys}</td>
                <td className="px-5 py-2.5 text-right">
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
