// First-run setup: creates the first owner account; once one exists, sends visitors to /signin. From
// another machine than the server's it asks for the setup token (lib/auth/setup-token.ts).
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SetupForm } from "@/components/auth/setup-form";
import { fromLoopback } from "@/lib/auth/setup-token";
import { ownerCount } from "@/lib/domain/owners/create-owner";

export const dynamic = "force-dynamic";

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  if ((await ownerCount()) > 0) redirect("/signin");
  const { token } = await searchParams;
  return (
    <AuthCard
      title="Set up Switchboard"
      subtitle="Create the owner account. You can add more owners later with the CLI."
    >
      <SetupForm needsToken={!fromLoopback(await headers())} token={typeof token === "string" ? token : ""} />
    </AuthCard>
  );
}
