import type { ApprovalView } from "@/lib/domain/proposals/list-approvals";

type AgentView = NonNullable<ApprovalView["agent"]>;

/**
 * A proposed agent, rendered for the owner: every field the approval binds to. The tool scope reads as a
 * diff against the proposer's own (granted, and what the proposer holds but does not pass on); each MCP
 * server's URL is shown in full, since that is where the agent will send data.
 */
export function AgentProposal({ a }: { a: AgentView }) {
  const withheld = a.proposer_tool_scope?.filter((t) => !a.tool_scope.includes(t)) ?? [];
  return (
    <div className="space-y-2 text-sm" data-testid="agent-proposal">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">Name</dt>
        <dd className="font-mono font-semibold text-slate-900" data-testid="agent-name">
          {a.name}
        </dd>
        <dt className="text-slate-500">Model</dt>
        <dd className="font-mono">{a.model}</dd>
        <dt className="text-slate-500">Autonomy tier</dt>
        <dd>
          {a.autonomy_tier}{" "}
          <span className="text-xs text-slate-500">(proposer: {a.proposer_autonomy_tier})</span>
        </dd>
        <dt className="text-slate-500">Parent task</dt>
        <dd>#{a.parent_task_id}</dd>
        <dt className="text-slate-500">Tool scope</dt>
        <dd>
          <ul className="flex flex-wrap gap-1" data-testid="agent-scope">
            {a.tool_scope.map((t) => (
              <li key={t} className="rounded bg-emerald-50 px-1.5 font-mono text-xs text-emerald-800">
                + {t}
              </li>
            ))}
            {withheld.map((t) => (
              <li
                key={t}
                className="rounded bg-slate-100 px-1.5 font-mono text-xs text-slate-400 line-through"
              >
                − {t}
              </li>
            ))}
          </ul>
          <p className="mt-0.5 text-xs text-slate-500">
            {a.proposer_tool_scope === null
              ? "The proposer holds every agent tool; + marks what this agent gets."
              : "+ granted from the proposer's scope; − held by the proposer, not granted."}
          </p>
        </dd>
        <dt className="text-slate-500">MCP servers</dt>
        <dd>
          {a.mcp_servers?.length ? (
            <ul data-testid="agent-mcp-servers">
              {a.mcp_servers.map((s) => (
                <li key={`${s.name}-${s.url}`}>
                  {s.name}: <code className="break-all text-rose-800">{s.url}</code>{" "}
                  <span className="text-xs text-slate-500">({s.transport})</span>
                </li>
              ))}
            </ul>
          ) : (
            "none"
          )}
        </dd>
        {a.skills?.length ? (
          <>
            <dt className="text-slate-500">Skills</dt>
            <dd>{a.skills.join(", ")}</dd>
          </>
        ) : null}
        {a.subagents?.length ? (
          <>
            <dt className="text-slate-500">Subagents</dt>
            <dd>{a.subagents.join(", ")}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Reason</dt>
        <dd className="whitespace-pre-wrap">{a.reason}</dd>
      </dl>
      <details>
        <summary className="cursor-pointer text-slate-600">
          System prompt ({a.system_prompt.length} characters)
        </summary>
        <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap">
          {a.system_prompt}
        </pre>
      </details>
    </div>
  );
}
