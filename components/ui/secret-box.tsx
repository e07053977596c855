"use client";

import { useRef, useState } from "react";
import { Button } from "./button";

/** A value shown once, with a copy button (selects the text where the clipboard API is unavailable). */
export function SecretBox({ value, label }: { value: string; label: string }) {
  const ref = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } else if (ref.current) {
      window.getSelection()?.selectAllChildren(ref.current);
    }
  };
  return (
    <div className="flex items-start gap-2">
      <code
        ref={ref}
        className="min-w-0 flex-1 break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-emerald-300"
      >
        {value}
      </code>
      <Button
        variant="secondary"
        size="sm"
        onClick={copy}
        aria-label={`Copy ${label}`}
        className="mt-1 shrink-0"
      >
        {copied ? "Copied" : "Copy"}
      </Button>
    </div>
  );
}
