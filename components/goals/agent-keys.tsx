import { revokeAgentKeyAction } from "@/app/goals/[id]/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TableHead } from "@/components/ui/table-head";
import type { listAgentKeys } from "@/lib/domain/agents/keys";

type Key = Awaited<ReturnType<typeof listAgentKeys>>[number];

/** An agent's API keys (prefix, created, last used, revoked) with a Revoke button per active key. */
export function AgentKeys({ agentId, keys }: { agentId: number; keys: Key[] }) {
  if (keys.length === 0) {
    return (
      <p className="px-5 py-6 text-sm text-slate-500">
        No keys. Issue one from the goal page (“New API key”) or with{" "}
        <code>switchboard agent key {agentId}</code>.
      </p>
    );
  }
  return (
    <table className="min-w-full text-sm" data-testid="agent-keys">
      <TableHead columns={["Prefix", "Created", "Last used", "Status", ""]} />
      <tbody className="divide-y divide-slate-100">
        {keys.map((k) => (
          <tr key={k.key_id} data-testid={`key-${k.key_id}`} data-revoked={k.revoked_at ? "true" : "false"}>
            <td className="px-5 py-2.5 font-mono text-xs text-slate-700">{k.prefix}</td>
            <td className="px-5 py-2.5 text-slate-600">
              <LocalTime iso={k.created_at} />
            </td>
            <td className="px-5 py-2.5 text-slate-600">
              {k.last_used_at ? <LocalTime iso={k.last_used_at} /> : "never"}
            </td>
            <td className="px-5 py-2.5">
              {k.revoked_at ? (
                <Badge tone="red">
                  revoked <LocalTime iso={k.revoked_at} />
                </Badge>
              ) : (
                <Badge tone="green">active</Badge>
              )}
            </td>
            <td className="px-5 py-2.5 text-right">
              {k.revoked_at ? null : (
                <form action={revokeAgentKeyAction.bind(null, agentId, k.key_id)}>
                  <Button type="submit" variant="danger" size="sm" aria-label={`Revoke key ${k.prefix}`}>
                    Revoke
                  </Button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
