// Notifications: the owner's channels (webhook, Slack, email), what reaches them and how often, and the
// delivery log with every attempt and a Replay button (issue 17, docs/notifications.md).
import { ChannelActions, ReplayButton } from "@/components/notifications/channel-actions";
import { GoalSettingsRow } from "@/components/notifications/goal-settings-row";
import { LogRefresh } from "@/components/notifications/log-refresh";
import { NewChannelForm } from "@/components/notifications/new-channel-form";
import { SettingsForm } from "@/components/notifications/settings-form";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { Panel } from "@/components/ui/panel";
import { TableHead } from "@/components/ui/table-head";
import { requireOwner } from "@/lib/auth/require-owner";
import { listGoals } from "@/lib/domain/goals/queries";
import { type ChannelView, listChannels } from "@/lib/domain/notifications/channels";
import { NOTIFICATION_KINDS } from "@/lib/domain/notifications/kinds";
import { listDeliveries } from "@/lib/domain/notifications/outbox";
import { kindLabel } from "@/lib/domain/notifications/render";
import { getSettings } from "@/lib/domain/notifications/settings";

export const dynamic = "force-dynamic";

function where(c: ChannelView): string {
  if (c.kind === "webhook") return c.config.url ?? "";
  if (c.kind === "email") return `${c.config.to} via ${c.config.host}:${c.config.port}`;
  return c.slack_interactive_url ? "incoming webhook + app buttons" : "incoming webhook";
}

const STATUS_TONE = { delivered: "green", pending: "amber", failed: "red" } as const;

export default async function NotificationsPage() {
  const owner = await requireOwner();
  const [channels, deliveries, settings, goals] = await Promise.all([
    listChannels(owner.userId),
    listDeliveries(owner.userId, { limit: 50 }),
    getSettings(owner.userId),
    listGoals(owner.userId),
  ]);
  const open = goals.filter((g) => g.status !== "completed" && g.status !== "cancelled").slice(0, 50);
  const disabled = channels.filter(
    (c) => !c.enabled && c.disabled_reason && c.disabled_reason !== "by the owner",
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Notifications</h1>
      <p className="text-sm text-slate-600">
        Questions, approvals, secret requests, budget alerts, crashes and escalations reach you here too,
        batched per goal. Channel secrets are encrypted at rest and never shown again.
      </p>
      {disabled.map((c) => (
        <p
          key={c.id}
          role="alert"
          className="rounded-md bg-rose-50 px-4 py-3 text-sm text-rose-800 ring-1 ring-rose-200"
        >
          Channel “{c.name}” was disabled: {c.disabled_reason}
        </p>
      ))}
      <Panel title="Channels">
        {channels.length ? (
          <table className="w-full text-left">
            <TableHead columns={["Name", "Kind", "Where", "State", ""]} />
            <tbody className="divide-y divide-slate-100">
              {channels.map((c) => (
                <tr key={c.id} data-testid="channel-row" data-channel-name={c.name} className="align-top">
                  <td className="px-5 py-3 text-sm font-semibold text-slate-900">{c.name}</td>
                  <td className="px-3 py-3 text-sm text-slate-600">{c.kind}</td>
                  <td className="px-3 py-3 text-xs break-all text-slate-600">
                    {where(c)}
                    {c.slack_interactive_url ? (
                      <div className="mt-1">
                        Interactivity Request URL: <code>{c.slack_interactive_url}</code>
                      </div>
                    ) : null}
                  </td>
                  <td className="px-3 py-3 text-sm">
                    {c.enabled ? <Badge tone="green">enabled</Badge> : <Badge tone="red">disabled</Badge>}
                  </td>
                  <td className="px-3 py-3">
                    <ChannelActions id={c.id} enabled={c.enabled} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="px-5 py-4 text-sm text-slate-500">No channel yet.</p>
        )}
        <div className="border-t border-slate-100">
          <NewChannelForm />
        </div>
      </Panel>
      <Panel title="What is sent">
        <SettingsForm
          kinds={NOTIFICATION_KINDS.filter((k) => k !== "channel_disabled").map((k) => ({
            kind: k,
            label: kindLabel(k),
          }))}
          chosen={settings.owner.kinds}
          batchSeconds={settings.owner.batch_seconds}
          defaultBatch={settings.default_batch_seconds}
          muted={settings.owner.muted}
        />
      </Panel>
      {open.length ? (
        <Panel title="Per goal">
          <div className="divide-y divide-slate-100">
            {open.map((g) => {
              const o = settings.goals.find((x) => x.goal_id === g.id);
              return (
                <GoalSettingsRow
                  key={g.id}
                  goalId={g.id}
                  title={g.title}
                  muted={o?.muted ?? false}
                  batchSeconds={o?.batch_seconds ?? null}
                />
              );
            })}
          </div>
        </Panel>
      ) : null}
      <Panel
        title="Delivery log"
        actions={<LogRefresh stamp={deliveries.map((d) => `${d.id}:${d.status}:${d.attempts}`).join(",")} />}
      >
        {deliveries.length ? (
          <table className="w-full text-left">
            <TableHead columns={["When", "Channel", "Message", "Status", "Attempts", ""]} />
            <tbody className="divide-y divide-slate-100">
              {deliveries.map((d) => (
                <tr
                  key={d.id}
                  data-testid="delivery-row"
                  data-delivery-id={d.id}
                  data-status={d.status}
                  className="align-top"
                >
                  <td className="px-5 py-3 text-xs text-slate-500">
                    <LocalTime iso={d.created_at} />
                  </td>
                  <td className="px-3 py-3 text-sm text-slate-700">{d.channel?.name ?? "–"}</td>
                  <td className="px-3 py-3 text-sm text-slate-700">
                    {d.test
                      ? "Test message"
                      : d.notifications.length === 1
                        ? d.notifications[0]?.summary
                        : `Digest of ${d.notifications.length}`}
                    {d.replay_of ? (
                      <span className="ml-1 text-xs text-slate-500">(replay of #{d.replay_of})</span>
                    ) : null}
                    <div className="font-mono text-[11px] text-slate-400">{d.msg_id}</div>
                  </td>
                  <td className="px-3 py-3 text-sm">
                    <Badge tone={STATUS_TONE[d.status as keyof typeof STATUS_TONE] ?? "slate"}>
                      {d.status}
                    </Badge>
                  </td>
                  <td className="px-3 py-3 text-xs text-slate-600" data-testid="delivery-attempts">
                    <ol className="space-y-0.5">
                      {d.log.map((a) => (
                        <li key={a.at}>
                          <LocalTime iso={a.at} mode="time" /> {a.ok ? "ok" : "failed"}
                          {a.http_status ? ` · HTTP ${a.http_status}` : ""}
                          {a.error && !a.ok ? ` · ${a.error}` : ""} · {a.duration_ms} ms
                        </li>
                      ))}
                    </ol>
                    {d.next_attempt_at && d.attempts ? (
                      <div>
                        next try <LocalTime iso={d.next_attempt_at} mode="time" />
                      </div>
                    ) : null}
                  </td>
                  <td className="px-3 py-3">{d.status === "pending" ? null : <ReplayButton id={d.id} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="px-5 py-4 text-sm text-slate-500">Nothing sent yet.</p>
        )}
      </Panel>
    </div>
  );
}
