// #requests: credentials agents asked for (supply in a scope, or decline with a reason) and the decided ones.
// Live through the shell's InboxLive (a new request appears without a reload).
import { RequestCard } from "@/components/secrets/request-card";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listRequests } from "@/lib/domain/secrets/owner-requests";

export const dynamic = "force-dynamic";

export default async function RequestsPage() {
  const owner = await requireOwner();
  const [open, decided] = await Promise.all([
    listRequests(owner.userId, { status: "open" }),
    listRequests(owner.userId, { status: "decided", limit: 20 }),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">#requests</h1>
      <p className="text-sm text-slate-600">
        A value you supply is encrypted at once and reaches only the environment of the agent&apos;s next
        launch; it is never shown again. Manage supplied values on the Secrets page.
      </p>
      <Panel title={`Open (${open.length})`}>
        {open.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500">
            No agent is waiting for a credential.
          </p>
        ) : (
          <div className="divide-y divide-slate-100">
            {open.map((r) => (
              <RequestCard key={r.request_id} r={r} />
            ))}
          </div>
        )}
      </Panel>
      <Panel title="Decided">
        {decided.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500">No decisions yet.</p>
        ) : (
          <div className="divide-y divide-slate-100">
            {decided.map((r) => (
              <RequestCard key={r.request_id} r={r} />
            ))}
          </div>
        )}
      </Panel>
    </div>
  );
}
