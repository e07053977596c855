// First-run setup: creates the first owner account; once one exists, sends visitors to /signin.
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SetupForm } from "@/components/auth/setup-form";
import { ownerCount } from "@/lib/domain/owners/create-owner";

export const dynamic = "force-dynamic";

export default async function SetupPage() {
  if ((await ownerCount()) > 0) redirect("/signin");
  return (
    <AuthCard
      title="Set up Switchboard"
      subtitle="Create the owner account. You can add more owners later with the CLI."
    >
      <SetupForm />
    </AuthCard>
  );
}
