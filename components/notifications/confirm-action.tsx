"use client";

import { useState, useTransition } from "react";
import { redeemTokenAction } from "@/app/n/[token]/actions";
import { Button } from "@/components/ui/button";

export function ConfirmAction({
  token,
  text,
  detail,
  link,
}: {
  token: string;
  text: string;
  detail: string;
  link: string;
}) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ outcome: string; message: string }>();
  if (result) {
    return (
      <div className="space-y-2" data-testid="action-result" data-outcome={result.outcome}>
        <p className="text-sm text-slate-800">{result.message}</p>
        <a className="text-sm text-sky-700 underline" href={link}>
          Open in Switchboard
        </a>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">{detail}</p>
      <Button disabled={pending} onClick={() => start(async () => setResult(await redeemTokenAction(token)))}>
        {text}
      </Button>
      <div>
        <a className="text-sm text-sky-700 underline" href={link}>
          Answer in Switchboard instead
        </a>
      </div>
    </div>
  );
}
