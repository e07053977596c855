import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { TableHead } from "@/components/ui/table-head";
import type { SkillView } from "@/lib/domain/skills/skills";

/** The template's limits in a few words (docs/runner.md, "Limits"). */
function limits(s: SkillView): string {
  const parts = [
    s.max_turns ? `${s.max_turns} turns/launch` : null,
    s.max_minutes ? `${s.max_minutes} min/launch` : null,
    s.max_cost_cents ? `$${(s.max_cost_cents / 100).toFixed(2)}/agent` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "none";
}

/**
 * The owner's own skills and the built-ins (read-only: "Copy to edit"). A built-in the owner has a copy of
 * is marked: the copy is what the owner's agents get.
 */
export function SkillTable({ skills }: { skills: SkillView[] }) {
  const shadowed = new Set(skills.filter((s) => s.shadowed).map((s) => s.name));
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="skill-table">
        <TableHead columns={["Name", "Description", "Model", "Tools", "Limits", ""]} />
        <tbody className="divide-y divide-slate-100">
          {skills.map((s) => (
            <tr
              key={`${s.builtin ? "builtin" : "own"}:${s.name}`}
              data-testid={s.shadowed ? `skill-${s.name}-builtin` : `skill-${s.name}`}
              className={s.shadowed ? "opacity-60" : undefined}
            >
              <td className="px-5 py-2.5 font-mono text-slate-900">
                {s.name} {s.builtin ? <Badge>built-in</Badge> : null}{" "}
                {s.shadowed ? <Badge tone="amber">replaced by your copy</Badge> : null}
                {!s.builtin && shadowed.has(s.name) ? <Badge tone="blue">your copy</Badge> : null}
              </td>
              <td className="px-5 py-2.5 text-slate-600">{s.description}</td>
              <td className="px-5 py-2.5 text-slate-600">{s.model ?? "default"}</td>
              <td className="px-5 py-2.5 text-slate-600">{s.tools.length ? s.tools.join(", ") : "all"}</td>
              <td className="px-5 py-2.5 text-slate-600" data-testid="skill-limits">
                {limits(s)}
              </td>
              <td className="px-5 py-2.5 text-right">
                {s.shadowed ? null : (
                  <Link href={`/skills/${s.name}`} className="text-sm font-medium text-slate-900 underline">
                    {s.builtin ? "Copy to edit" : "Edit"}
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
