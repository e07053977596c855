// Skills: the agent templates plans and teams name (description, system prompt, tools, default model).
import { SkillForm } from "@/components/skills/skill-form";
import { SkillTable } from "@/components/skills/skill-table";
import { Panel } from "@/components/ui/panel";
import { requireOwner } from "@/lib/auth/require-owner";
import { listSkills, seedBuiltinSkills } from "@/lib/domain/skills/skills";

export const dynamic = "force-dynamic";

export default async function SkillsPage() {
  const owner = await requireOwner();
  await seedBuiltinSkills();
  const skills = await listSkills(owner.userId);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Skills</h1>
        <p className="mt-1 text-sm text-slate-500">
          A skill is an agent template. declare_plan and create_team name one per task or role; a spawned
          agent gets its system prompt (with its role description), tools and model. Your skills are yours
          alone; built-ins are shared and read-only: copy one to edit it, and your copy (same name) is what
          your agents get.
        </p>
      </div>
      <Panel title={`Skills (${skills.length})`}>
        <SkillTable skills={skills} />
      </Panel>
      <Panel title="Add a skill">
        <SkillForm />
      </Panel>
    </div>
  );
}
