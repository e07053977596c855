import { revokeTokenAction } from "@/app/tokens/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TableHead } from "@/components/ui/table-head";
import type { listTokens } from "@/lib/domain/tokens/tokens";

type Token = Awaited<ReturnType<typeof listTokens>>[number];

export function TokenTable({ tokens }: { tokens: Token[] }) {
  if (tokens.length === 0) {
    return <p className="px-5 py-10 text-center text-sm text-slate-500">No tokens yet.</p>;
  }
  return (
    <table className="min-w-full text-sm">
      <TableHead columns={["Name", "Prefix", "Created", "Last used", "Status", ""]} />
      <tbody className="divide-y divide-slate-100">
        {tokens.map((t) => (
          <tr key={t.id} data-testid={`token-${t.id}`}>
            <td className="px-5 py-2.5 font-medium text-slate-900">{t.name}</td>
            <td className="px-5 py-2.5 font-mono text-xs text-slate-500">{t.prefix}</td>
            <td className="px-5 py-2.5 text-slate-600">
              <LocalTime iso={t.created_at} />
            </td>
            <td className="px-5 py-2.5 text-slate-600">
              {t.last_used_at ? <LocalTime iso={t.last_used_at} /> : "never"}
            </td>
            <td className="px-5 py-2.5">
              {t.revoked_at ? <Badge tone="red">revoked</Badge> : <Badge tone="green">active</Badge>}
            </td>
            <td className="px-5 py-2.5 text-right">
              {t.revoked_at ? null : (
                <form action={revokeTokenAction.bind(null, t.id)}>
                  <Button type="submit" variant="danger" size="sm">
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
