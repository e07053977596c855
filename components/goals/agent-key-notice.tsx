"use client";

import { Button } from "@/components/ui/button";
import { SecretBox } from "@/components/ui/secret-box";

/** A freshly issued agent key, shown once, with the command that connects Claude Code to it. */
export function AgentKeyNotice({
  agentName,
  apiKey,
  onDismiss,
}: {
  agentName: string;
  apiKey: string;
  onDismiss: () => void;
}) {
  const command = `claude mcp add --transport http switchboard ${window.location.origin}/mcp --header "Authorization: Bearer ${apiKey}"`;
  return (
    <div className="space-y-3 border-b border-amber-200 bg-amber-50 px-5 py-4" data-testid="agent-key-notice">
      <div className="flex items-start justify-between gap-4">
        <p className="text-sm text-amber-900">
          <strong>New API key for {agentName}.</strong> Copy it now: it is stored only as a hash and will not
          be shown again.
        </p>
        <Button variant="secondary" size="sm" onClick={onDismiss}>
          Done
        </Button>
      </div>
      <SecretBox value={apiKey} label="API key" />
      <p className="text-xs text-amber-900">Connect Claude Code as this agent:</p>
      <SecretBox value={command} label="Claude Code command" />
    </div>
  );
}
