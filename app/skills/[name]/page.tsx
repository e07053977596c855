// Edit one skill.
import Link from "next/link";
import { notFound } from "next/navigation";
import { SkillForm } from "@/components/skills/skill-form";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { getSkill } from "@/lib/domain/skills/skills";
import { isDomainError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export default async function SkillPage({ params }: { params: Promise<{ name: string }> }) {
  await requireOwner();
  const name = decodeURIComponent((await params).name);
  const skill = await getSkill(name).catch((e) => {
    if (isDomainError(e) && e.code === "not_found") notFound();
    throw e;
  });
  return (
    <div className="space-y-6">
      <Link href="/skills" className="text-sm text-slate-500 underline">
        ← Skills
      </Link>
      <Panel title={`Edit skill ${skill.name}`}>
        <SkillForm skill={skill} />
      </Panel>
    </div>
  );
}
