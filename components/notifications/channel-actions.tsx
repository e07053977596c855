"use client";

import { useState, useTransition } from "react";
import {
  deleteChannelAction,
  replayAction,
  setChannelEnabledAction,
  testChannelAction,
} from "@/app/settings/notifications/actions";
import { Button } from "@/components/ui/button";

export function ChannelActions({ id, enabled }: { id: number; enabled: boolean }) {
  const [msg, setMsg] = useState<string>();
  const [pending, start] = useTransition();
  const run = (f: () => Promise<{ error?: string; detail?: string }>) =>
    start(async () => {
      const r = await f();
      setMsg(r.error ?? r.detail);
    });
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() => run(() => testChannelAction(id))}
      >
        Send test
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() => run(() => setChannelEnabledAction(id, !enabled))}
      >
        {enabled ? "Disable" : "Enable"}
      </Button>
      <Button
        size="sm"
        variant="danger"
        disabled={pending}
        onClick={() => run(() => deleteChannelAction(id))}
      >
        Delete
      </Button>
      {msg ? (
        <span className="text-xs text-slate-600" data-testid="channel-message">
          {msg}
        </span>
      ) : null}
    </div>
  );
}

export function ReplayButton({ id }: { id: number }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            setError((await replayAction(id)).error);
          })
        }
      >
        Replay
      </Button>
      {error ? <span className="text-xs text-rose-700">{error}</span> : null}
    </>
  );
}
