// Secrets: every secret of the owner by scope (created, last used, used by); replace (rotation) and revoke.
// Values are write-only: this page never shows one.
import { NewSecretForm } from "@/components/secrets/new-secret-form";
import { SecretRowActions } from "@/components/secrets/secret-row-actions";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { Panel } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";
import { requireOwner } from "@/lib/auth/require-owner";
import { listOwnerSecrets, type SecretView } from "@/lib/domain/secrets/list-secrets";

export const dynamic = "force-dynamic";

const SCOPES = [
  { scope: "user", title: "All my agents" },
  { scope: "agent", title: "One agent" },
  { scope: "task", title: "One task" },
] as const;

function Row({ s }: { s: SecretView }) {
  return (
    <tr data-testid="secret-row" data-secret-name={s.name} className="align-top">
      <td className="px-5 py-3 font-mono text-sm font-semibold text-slate-900">{s.name}</td>
      <td className="px-3 py-3 text-sm text-slate-600">{s.scope_label}</td>
      <td className="px-3 py-3 text-sm">
        {s.available ? (
          <Badge tone="green">
            set · v{s.version}
            {s.kind === "file" ? " · file" : ""}
          </Badge>
        ) : (
          <Badge tone="red">revoked</Badge>
        )}
      </td>
      <td className="px-3 py-3 text-xs text-slate-500">
        <LocalTime iso={s.created_at} />
      </td>
      <td className="px-3 py-3 text-xs text-slate-500">
        {s.last_used_at ? <LocalTime iso={s.last_used_at} /> : "never"}
      </td>
      <td className="px-3 py-3 text-xs text-slate-500">
        {s.last_used_by ? `${s.last_used_by.name ?? "agent"} #${s.last_used_by.agent_id}` : "–"}
      </td>
      <td className="px-3 py-3">
        <SecretRowActions scope={s.scope} scopeId={s.scope_id} name={s.name} available={s.available} />
      </td>
    </tr>
  );
}

export default async function SecretsPage() {
  const owner = await requireOwner();
  const secrets = await listOwnerSecrets(owner.userId);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Secrets</h1>
      <p className="text-sm text-slate-600">
        Values are encrypted at rest and reach only the environment of an agent&apos;s next launch (task over
        agent over all agents for the same name). They are never shown again: replace one to rotate it, revoke
        one to stop its delivery.
      </p>
      <Panel title="New secret">
        <NewSecretForm />
      </Panel>
      {SCOPES.map(({ scope, title }) => {
        const rows = secrets.filter((s) => s.scope === scope);
        return (
          <Panel key={scope} title={`${title} (${rows.length})`}>
            {rows.length === 0 ? (
              <p className="px-5 py-6 text-center text-sm text-slate-500">None.</p>
            ) : (
              <table className="w-full text-left">
                <TableHead columns={["name", "scope", "state", "created", "last used", "used by", ""]} />
                <tbody className="divide-y divide-slate-100">
                  {rows.map((s) => (
                    <Row key={`${s.scope}/${s.scope_id}/${s.name}`} s={s} />
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
        );
      })}
    </div>
  );
}
