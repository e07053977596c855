"use client";

import { useRef, useState, useTransition } from "react";
import { createChannelAction } from "@/app/settings/notifications/actions";
import { Button } from "@/components/ui/button";
import { FormError, inputClass } from "@/components/ui/field";
import { SecretBox } from "@/components/ui/secret-box";

/** Add a webhook, Slack or email channel. A webhook's signing secret is shown once, here. */
export function NewChannelForm() {
  const form = useRef<HTMLFormElement>(null);
  const [kind, setKind] = useState("webhook");
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<string>();
  const [pending, start] = useTransition();
  const submit = (fd: FormData) =>
    start(async () => {
      const r = await createChannelAction(fd);
      setError(r.error);
      setSecret(r.signing_secret);
      if (!r.error) form.current?.reset();
    });
  const input = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <input name={name} aria-label={label} placeholder={label} className={`${inputClass} w-64`} {...props} />
  );
  return (
    <form ref={form} action={submit} className="space-y-3 p-5" data-testid="new-channel-form">
      <div className="flex flex-wrap items-end gap-2">
        <select
          name="kind"
          aria-label="Channel kind"
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          className={`${inputClass} w-auto`}
        >
          <option value="webhook">Webhook</option>
          <option value="slack">Slack</option>
          <option value="email">Email (SMTP)</option>
        </select>
        {input("name", "Name", { required: true, className: `${inputClass} w-48` })}
        {kind === "webhook"
          ? input("url", "Endpoint URL", { required: true, type: "url", className: `${inputClass} w-96` })
          : null}
        {kind === "slack" ? (
          <>
            {input("webhook_url", "Slack incoming webhook URL", {
              required: true,
              type: "url",
              className: `${inputClass} w-96`,
            })}
            {input("signing_secret", "Slack signing secret (optional: buttons)", {
              type: "password",
              autoComplete: "off",
            })}
          </>
        ) : null}
        {kind === "email" ? (
          <>
            {input("host", "SMTP host", { required: true })}
            {input("port", "Port", {
              inputMode: "numeric",
              defaultValue: "587",
              className: `${inputClass} w-24`,
            })}
            <label className="flex items-center gap-1 text-xs text-slate-600">
              <input type="checkbox" name="secure" /> TLS
            </label>
            {input("user", "SMTP user")}
            {input("password", "SMTP password", { type: "password", autoComplete: "off" })}
            {input("from", "From address", { required: true })}
            {input("to", "To address", { required: true })}
          </>
        ) : null}
        <Button type="submit" disabled={pending}>
          Add channel
        </Button>
      </div>
      <FormError message={error} />
      {secret ? (
        <div className="space-y-1" data-testid="signing-secret">
          <p className="text-xs text-slate-600">
            Signing secret (Standard Webhooks): shown once. Verify each request with it.
          </p>
          <SecretBox value={secret} label="signing secret" />
        </div>
      ) : null}
    </form>
  );
}
