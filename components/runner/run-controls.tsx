"use client";

import { useState, useTransition } from "react";
import { type RunControl, runControlAction } from "@/app/goals/[id]/actions";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

const RUN_TONES: Record<string, Tone> = {
  queued: "slate",
  starting: "blue",
  running: "green",
  backoff: "amber",
  stopped: "amber",
  exited: "slate",
  crashed: "red",
};

/** An agent's run state (docs/runner.md); `external` for an agent that runs elsewhere with its own key. */
export function RunStateBadge({ runState }: { runState: string | null }) {
  return (
    <span title={runState ? "started by a runner (docs/runner.md)" : "runs elsewhere, with its own key"}>
      <Badge tone={runState ? (RUN_TONES[runState] ?? "slate") : "slate"}>
        <span data-testid="run-state">{runState ?? "external"}</span>
      </Badge>
    </span>
  );
}

const STOPPABLE = ["queued", "starting", "running", "backoff"];
const RESTARTABLE = ["crashed", "exited", "stopped"];

/**
 * Stop / Restart (and, where asked, Terminate) for one runner-managed agent. Nothing for an agent that
 * runs elsewhere or has terminated.
 */
export function RunControls(props: {
  agentId: number;
  agentName: string;
  runState: string | null;
  status: string;
  terminate?: boolean;
}) {
  const [pending, setPending] = useState<RunControl>();
  const [error, setError] = useState<string>();
  const [, startTransition] = useTransition();
  if (props.runState === null || props.status === "terminated") return null;
  const run = (control: RunControl) => {
    if (control === "terminate" && !window.confirm(`Terminate ${props.agentName} for good?`)) return;
    setPending(control);
    startTransition(async () => {
      const r = await runControlAction(props.agentId, control);
      setPending(undefined);
      setError(r.error);
    });
  };
  const busy = pending !== undefined;
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-2">
      {STOPPABLE.includes(props.runState) ? (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => run("stop")}>
          {pending === "stop" ? "Stopping…" : "Stop"}
        </Button>
      ) : null}
      {RESTARTABLE.includes(props.runState) ? (
        <Button size="sm" disabled={busy} onClick={() => run("restart")}>
          {pending === "restart" ? "Restarting…" : "Restart"}
        </Button>
      ) : null}
      {props.terminate ? (
        <Button variant="danger" size="sm" disabled={busy} onClick={() => run("terminate")}>
          {pending === "terminate" ? "Terminating…" : "Terminate"}
        </Button>
      ) : null}
      {error ? (
        <span className="text-xs text-rose-700" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
