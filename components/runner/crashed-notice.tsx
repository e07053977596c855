// The goal page's notice for each `crashed` agent (3 crashes in a row, docs/runner.md): what happened and
// the two ways on — Restart (queued again, crash count cleared) or Terminate (ended for good).
import Link from "next/link";
import { RunControls } from "./run-controls";

export function CrashedNotice(props: {
  goalId: number;
  coordinatorId: number | null;
  agents: { agent_id: number; name: string; run_state: string | null; status: string }[];
}) {
  const crashed = props.agents.filter((a) => a.run_state === "crashed" && a.status !== "terminated");
  if (crashed.length === 0) return null;
  return (
    <section
      className="space-y-2 rounded-lg bg-rose-50 p-4 ring-1 ring-rose-200"
      data-testid="crashed-notice"
    >
      {crashed.map((a) => (
        <div
          key={a.agent_id}
          className="flex flex-wrap items-center gap-3"
          data-testid={`crashed-${a.agent_id}`}
        >
          <p className="text-sm text-rose-900">
            <Link href={`/goals/${props.goalId}/agents/${a.agent_id}`} className="font-semibold underline">
              {a.name}
            </Link>{" "}
            crashed 3 times in a row and is not restarted. Its transcript shows the last errors.
          </p>
          <span className="ml-auto">
            <RunControls
              agentId={a.agent_id}
              agentName={a.name}
              runState={a.run_state}
              status={a.status}
              terminate={a.agent_id !== props.coordinatorId}
            />
          </span>
        </div>
      ))}
    </section>
  );
}
