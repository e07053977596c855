// One skill: the owner's own (edit, delete) or a built-in (read-only, copy to edit).
import Link from "next/link";
import { notFound } from "next/navigation";
import { SkillCopyForm } from "@/components/skills/skill-copy-form";
import { SkillDeleteButton } from "@/components/skills/skill-delete-button";
import { SkillForm } from "@/components/skills/skill-form";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { BUILTIN_SKILLS, getSkill } from "@/lib/domain/skills/skills";
import { isDomainError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export default async function SkillPage({ params }: { params: Promise<{ name: string }> }) {
  const owner = await requireOwner();
  const name = decodeURIComponent((await params).name);
  const skill = await getSkill(owner.userId, name).catch((e) => {
    if (isDomainError(e) && e.code === "not_found") notFound();
    throw e;
  });
  const back = (
    <Link href="/skills" className="text-sm text-slate-500 underline">
      ← Skills
    </Link>
  );
  if (skill.builtin) {
    return (
      <div className="space-y-6">
        {back}
        <Panel title={`Built-in skill ${skill.name}`}>
          <dl className="space-y-3 p-5 text-sm" data-testid="skill-builtin">
            <p className="text-slate-500">
              Built-ins are shared by every owner and read-only. Copy it to edit: your copy is what your
              agents get.
            </p>
            <div>
              <dt className="font-medium text-slate-700">Description</dt>
              <dd className="text-slate-600">{skill.description}</dd>
            </div>
            <div>
              <dt className="font-medium text-slate-700">System prompt</dt>
              <dd>
                <pre className="whitespace-pre-wrap rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">
                  {skill.system_prompt}
                </pre>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-700">Default model</dt>
              <dd className="text-slate-600">{skill.model ?? "default"}</dd>
            </div>
          </dl>
        </Panel>
        <Panel title="Copy to edit">
          <SkillCopyForm name={skill.name} />
        </Panel>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      {back}
      <Panel title={`Edit skill ${skill.name}`}>
        <SkillForm skill={skill} />
      </Panel>
      <Panel title="Delete">
        <SkillDeleteButton
          name={skill.name}
          replacesBuiltin={BUILTIN_SKILLS.some((b) => b.name === skill.name)}
        />
      </Panel>
    </div>
  );
}
