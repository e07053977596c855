import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { RequestView } from "@/lib/domain/secrets/owner-requests";
import { SupplyForm } from "./supply-form";

/** One resource request: who asks, for which task, why, the type; open ones take a value or a decline. */
export function RequestCard({ r, showGoal = true }: { r: RequestView; showGoal?: boolean }) {
  return (
    <article className="space-y-2 px-5 py-4" data-testid="resource-request" data-request-id={r.request_id}>
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold text-slate-900">{r.name}</span>
        <Badge tone="blue">{r.resource_type}</Badge>
        <span className="text-slate-500">
          asked by {r.agent.name ?? "agent"} #{r.agent.agent_id} for task #{r.task.task_id}
          {r.task.title ? ` "${r.task.title}"` : ""}
        </span>
        {showGoal ? (
          <Link href={`/goals/${r.goal.id}`} className="text-slate-700 hover:underline">
            · {r.goal.title}
          </Link>
        ) : null}
        <Badge tone={r.status === "open" ? "amber" : r.status === "supplied" ? "green" : "red"}>
          {r.status}
        </Badge>
        <span className="ml-auto text-xs text-slate-400">
          <LocalTime iso={r.decided_at ?? r.created_at} />
        </span>
      </header>
      <p className="text-sm whitespace-pre-wrap text-slate-600">{r.reason}</p>
      {r.status === "open" ? (
        <SupplyForm requestId={r.request_id} resourceType={r.resource_type} name={r.name} />
      ) : r.status === "supplied" ? (
        <p className="text-sm text-emerald-700">
          Supplied for{" "}
          {r.scope === "user" ? "all your agents" : r.scope === "agent" ? "this agent" : "this task"}.
        </p>
      ) : (
        <p className="text-sm text-rose-700">Declined: {r.decline_reason}</p>
      )}
    </article>
  );
}
