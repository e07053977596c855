// Goal page: each plan as a DAG, one column per dependency layer, nodes coloured by status. With many
// plans (a big team), each starts folded to one line.
import { Badge, type Tone } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import type { PlanView } from "@/lib/domain/teams/goal-team-view";
import { teamView } from "./team-view";

const W = 190;
const H = 72;
const GX = 56;
const GY = 16;

const NODE_TONES: Record<string, string> = {
  ready: "border-sky-300 bg-sky-50",
  blocked: "border-slate-200 bg-slate-50",
  in_flight: "border-amber-300 bg-amber-50",
  done: "border-emerald-300 bg-emerald-50",
  failed: "border-rose-300 bg-rose-50",
};
const BADGE: Record<string, Tone> = {
  ready: "blue",
  blocked: "slate",
  in_flight: "amber",
  done: "green",
  failed: "red",
};

function Dag({ plan }: { plan: PlanView }) {
  const pos = new Map(plan.tasks.map((t) => [t.id, { x: t.layer * (W + GX), y: t.row * (H + GY) }]));
  const width = Math.max(...plan.tasks.map((t) => t.layer)) * (W + GX) + W;
  const height = (Math.max(...plan.tasks.map((t) => t.row)) + 1) * (H + GY) - GY;
  return (
    <div className="overflow-x-auto px-5 py-4">
      <div className="relative" style={{ width, height }}>
        <svg className="absolute inset-0" width={width} height={height} aria-hidden="true">
          <defs>
            <marker
              id="dag-arrow"
              viewBox="0 0 8 8"
              refX="8"
              refY="4"
              markerWidth="7"
              markerHeight="7"
              orient="auto"
            >
              <path d="M0,0 L8,4 L0,8 z" fill="#94a3b8" />
            </marker>
          </defs>
          {plan.tasks.flatMap((t) =>
            t.depends_on.map((d) => {
              const a = pos.get(d);
              const b = pos.get(t.id);
              if (!a || !b) return null;
              const x1 = a.x + W;
              const y1 = a.y + H / 2;
              const x2 = b.x;
              const y2 = b.y + H / 2;
              return (
                <path
                  key={`${d}->${t.id}`}
                  d={`M${x1},${y1} C${x1 + GX / 2},${y1} ${x2 - GX / 2},${y2} ${x2},${y2}`}
                  fill="none"
                  stroke="#94a3b8"
                  strokeWidth={1.5}
                  markerEnd="url(#dag-arrow)"
                />
              );
            }),
          )}
        </svg>
        {plan.tasks.map((t) => {
          const p = pos.get(t.id) ?? { x: 0, y: 0 };
          return (
            <div
              key={t.id}
              data-testid={`dag-node-${t.id}`}
              data-status={t.status}
              className={`absolute rounded-md border px-2.5 py-1.5 text-xs ${NODE_TONES[t.status] ?? ""}`}
              style={{ left: p.x, top: p.y, width: W, height: H }}
            >
              <div className="flex items-center justify-between gap-1">
                <span className="truncate font-mono font-semibold text-slate-900">{t.id}</span>
                <Badge tone={BADGE[t.status] ?? "slate"}>{t.status.replace("_", " ")}</Badge>
              </div>
              <div className="truncate text-slate-600">
                {t.role} · {t.skill}
              </div>
              <div className="truncate text-slate-500">
                {t.agent_name ? `${t.agent_name} #${t.agent_id}` : "—"}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** More active plans than this (a big team: every leader has one) start folded to their summary line. */
const OPEN_UP_TO = 3;

const count = (p: PlanView, status: string) => {
  const n = p.tasks.filter((t) => t.status === status).length;
  return n ? ` · ${n} ${status.replace("_", " ")}` : "";
};

export async function PlanDagPanel({ goalId }: { goalId: number }) {
  const { plans } = await teamView(goalId);
  const active = plans.filter((p) => p.status === "active");
  const removed = plans.length - active.length;
  return (
    <Panel title={`Plans (${active.length} active${removed ? `, ${removed} removed` : ""})`}>
      {active.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-slate-500">No plan declared yet.</p>
      ) : (
        <div className="divide-y divide-slate-100" data-testid="plans">
          {active.map((p) => (
            <details key={p.plan_id} data-testid={`plan-${p.plan_id}`} open={active.length <= OPEN_UP_TO}>
              <summary className="cursor-pointer px-5 pt-3 pb-1 text-xs text-slate-500">
                <span className="font-mono">{p.plan_id}</span> · led by {p.leader_name} #{p.leader_id} ·{" "}
                {p.tasks.filter((t) => t.status === "done").length}/{p.tasks.length} done
                {count(p, "in_flight")}
                {count(p, "ready")}
                {count(p, "failed")}
              </summary>
              <Dag plan={p} />
            </details>
          ))}
        </div>
      )}
    </Panel>
  );
}
