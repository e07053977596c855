// Runner tokens and the runners behind them (issue 11 §1): create one (shown once), see each runner's last
// report and the agents it holds, revoke. The operator's page (the first owner); docs/runner.md.
import { CreateRunnerTokenForm } from "@/components/runners/create-runner-token-form";
import { RunnerTable } from "@/components/runners/runner-table";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { isOperator, runnersView } from "@/lib/domain/runner/runners-view";

export const dynamic = "force-dynamic";

export default async function RunnersPage() {
  const owner = await requireOwner();
  if (!(await isOperator(owner.userId))) {
    return (
      <div className="rounded-lg bg-white px-6 py-16 text-center shadow-xs ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold text-slate-900">Runners</h1>
        <p className="mt-2 text-sm text-slate-500" data-testid="runners-forbidden">
          Runner tokens belong to the hub&apos;s operator (its first owner): a runner serves every goal.
        </p>
      </div>
    );
  }
  const runners = await runnersView();
  const active = runners.filter((r) => !r.revoked_at);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Runners</h1>
        <p className="mt-1 text-sm text-slate-500">
          A runner launches agents for every goal of this hub, with a runner token. Tokens are stored hashed
          and shown once; a revoked token is refused at once. The server&apos;s embedded runner has its own
          token (embedded-…).
        </p>
      </div>
      <Panel title="Create runner token">
        <CreateRunnerTokenForm />
      </Panel>
      <Panel title={`Runner tokens (${active.length} active)`}>
        <div className="overflow-x-auto">
          <RunnerTable runners={runners} now={Date.now()} />
        </div>
      </Panel>
    </div>
  );
}
