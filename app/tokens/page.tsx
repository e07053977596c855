// Personal access tokens: create one (shown once), see when each was used, revoke.

import { CreateTokenForm } from "@/components/tokens/create-token-form";
import { TokenTable } from "@/components/tokens/token-table";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listTokens } from "@/lib/domain/tokens/tokens";

export default async function TokensPage() {
  const owner = await requireOwner();
  const tokens = await listTokens(owner.userId);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Personal tokens</h1>
        <p className="mt-1 text-sm text-slate-500">
          Tokens act as you over MCP (owner tools such as create_goal) and the REST API.
        </p>
      </div>
      <Panel title="Create token">
        <CreateTokenForm />
      </Panel>
      <Panel title={`Tokens (${tokens.length})`}>
        <TokenTable tokens={tokens} />
      </Panel>
    </div>
  );
}
