// Sign-in page: email and password (next-auth credentials); sends to /setup while no owner exists.
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { ownerCount } from "@/lib/domain/owners/create-owner";

export const dynamic = "force-dynamic";

/** The local path of a callback URL (next-auth passes absolute ones); never another origin. */
function localPath(raw: string | string[] | undefined): string {
  if (typeof raw !== "string") return "/goals";
  const url = new URL(raw, "http://local");
  const path = `/${url.pathname.replace(/^\/+/, "")}`;
  return path.startsWith("/signin") ? "/goals" : path + url.search;
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  if ((await ownerCount()) === 0) redirect("/setup");
  const { callbackUrl } = await searchParams;
  return (
    <AuthCard title="Sign in" subtitle="Sign in to watch and steer your agent teams.">
      <SignInForm callbackUrl={localPath(callbackUrl)} />
    </AuthCard>
  );
}
