"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { revokeRunnerTokenAction } from "@/app/runners/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TableHead } from "@/components/ui/table-head";
import type { runnersView } from "@/lib/domain/runner/runners-view";

type Runner = Awaited<ReturnType<typeof runnersView>>[number];

/** A runner counts as connected when it polled within this long (an idle runner polls every ≤ 60 s). */
const CONNECTED_MS = 90_000;

export function RunnerTable({ runners, now }: { runners: Runner[]; now: number }) {
  if (runners.length === 0) {
    return <p className="px-5 py-10 text-center text-sm text-slate-500">No runner tokens yet.</p>;
  }
  return (
    <table className="min-w-full text-sm">
      <TableHead
        columns={["Name", "Prefix", "Runner", "Last seen", "Capacity", "Agents held", "Status", ""]}
      />
      <tbody className="divide-y divide-slate-100">
        {runners.map((t) => {
          const connected =
            !t.revoked_at && t.last_seen_at !== null && now - Date.parse(t.last_seen_at) < CONNECTED_MS;
          return (
            <tr key={t.id} data-testid={`runner-token-${t.id}`} className="align-top">
              <td className="px-5 py-2.5 font-medium text-slate-900">{t.name}</td>
              <td className="px-5 py-2.5 font-mono text-xs text-slate-500">{t.prefix}</td>
              <td className="px-5 py-2.5 text-xs text-slate-600">
                {t.status?.instance ?? "—"}
                {t.status?.runtimes?.length ? (
                  <div className="text-slate-400">{t.status.runtimes.join(", ")}</div>
                ) : null}
              </td>
              <td className="px-5 py-2.5 text-slate-600">
                {t.last_seen_at ? <LocalTime iso={t.last_seen_at} /> : "never"}
              </td>
              <td className="px-5 py-2.5 tabular-nums text-slate-600" data-testid="capacity">
                {t.status ? `${t.status.running ?? 0} running · ${t.status.free_agent_slots ?? 0} free` : "—"}
              </td>
              <td className="px-5 py-2.5 text-xs text-slate-600" data-testid="held-agents">
                {t.agents.length === 0
                  ? "none"
                  : t.agents.map((a) => (
                      <div key={a.agent_id}>
                        <Link href={`/goals/${a.goal_id}/agents/${a.agent_id}`} className="underline">
                          {a.name} #{a.agent_id}
                        </Link>{" "}
                        <span className="text-slate-400">
                          {a.run_state}
                          {t.instances.length > 1 ? ` · ${a.instance}` : ""}
                        </span>
                      </div>
                    ))}
              </td>
              <td className="px-5 py-2.5" data-testid="runner-status">
                {t.revoked_at ? (
                  <Badge tone="red">revoked</Badge>
                ) : connected ? (
                  <Badge tone="green">connected</Badge>
                ) : (
                  <Badge tone="slate">not connected</Badge>
                )}
              </td>
              <td className="px-5 py-2.5 text-right">
                {t.revoked_at ? null : <RevokeButton id={t.id} name={t.name} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function RevokeButton({ id, name }: { id: number; name: string }) {
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="danger"
        size="sm"
        disabled={pending}
        onClick={() => {
          if (!window.confirm(`Revoke runner token “${name}”? Its runners are refused at once.`)) return;
          start(async () => setError((await revokeRunnerTokenAction(id)).error));
        }}
      >
        {pending ? "Revoking…" : "Revoke"}
      </Button>
      {error ? <span className="text-xs text-rose-700">{error}</span> : null}
    </span>
  );
}
