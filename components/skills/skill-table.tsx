import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { TableHead } from "@/components/ui/table-head";
import type { SkillView } from "@/lib/domain/skills/skills";

export function SkillTable({ skills }: { skills: SkillView[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="skill-table">
        <TableHead columns={["Name", "Description", "Model", "Tools", ""]} />
        <tbody className="divide-y divide-slate-100">
          {skills.map((s) => (
            <tr key={s.name} data-testid={`skill-${s.name}`}>
              <td className="px-5 py-2.5 font-mono text-slate-900">
                {s.name} {s.builtin ? <Badge>built-in</Badge> : null}
              </td>
              <td className="px-5 py-2.5 text-slate-600">{s.description}</td>
              <td className="px-5 py-2.5 text-slate-600">{s.model ?? "default"}</td>
              <td className="px-5 py-2.5 text-slate-600">{s.tools.length ? s.tools.join(", ") : "all"}</td>
              <td className="px-5 py-2.5 text-right">
                <Link href={`/skills/${s.name}`} className="text-sm font-medium text-slate-900 underline">
                  Edit
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
