"use client";

import { useState, useTransition } from "react";
import { sendOwnerMessageAction } from "@/app/goals/[id]/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { USER_SENTINEL } from "@/lib/domain/constants";

/** The owner writes to any agent of the goal; it arrives in its inbox from `__user__`. */
export function OwnerMessageForm({
  agents,
}: {
  agents: { agent_id: number; name: string; status: string }[];
}) {
  const live = agents.filter((a) => a.status !== "terminated");
  const [to, setTo] = useState(String(live[0]?.agent_id ?? ""));
  const [content, setContent] = useState("");
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const [pending, startTransition] = useTransition();
  const send = () =>
    startTransition(async () => {
      const r = await sendOwnerMessageAction(Number(to), content);
      if ("error" in r) {
        setError(r.error);
        setSent(undefined);
      } else {
        setError(undefined);
        setSent(`Sent to #${to}.`);
        setContent("");
      }
    });
  return (
    <Panel title="Message an agent">
      <div className="space-y-3 p-5">
        <select
          aria-label="Recipient"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          className={inputClass}
        >
          {live.map((a) => (
            <option key={a.agent_id} value={a.agent_id}>
              {a.name} #{a.agent_id}
            </option>
          ))}
        </select>
        <textarea
          aria-label="Message"
          rows={3}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          className={inputClass}
          placeholder={`Arrives in the agent's inbox from you (${USER_SENTINEL})`}
        />
        <FormError message={error} />
        <div className="flex items-center gap-3">
          <Button disabled={pending || !content.trim() || !to} onClick={send}>
            {pending ? "Sending…" : "Send"}
          </Button>
          {sent ? <span className="text-xs text-emerald-700">{sent}</span> : null}
        </div>
      </div>
    </Panel>
  );
}
