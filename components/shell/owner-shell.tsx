import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { InboxLive } from "@/components/inbox/inbox-live";
import { QuestionsNavLink } from "@/components/questions/questions-nav-link";
import { RequestsNavLink } from "@/components/secrets/requests-nav-link";
import { requireOwner } from "@/lib/auth/require-owner";
import { ownerInboxStamp } from "@/lib/domain/owners/inbox";
import { isOperator } from "@/lib/domain/runner/runners-view";
import { NavLink } from "./nav-link";

/**
 * The signed-in frame: top navigation and the page body. Redirects to /signin without a session. Live:
 * `InboxLive` refreshes the page when what waits for the owner changes (badges, inbox, #requests, #approvals).
 */
export async function OwnerShell({ children }: { children: ReactNode }) {
  const owner = await requireOwner();
  const operator = await isOperator(owner.userId);
  const stamp = JSON.stringify(await ownerInboxStamp(owner.userId));
  return (
    <div className="min-h-screen">
      <header className="bg-slate-900">
        <nav className="mx-auto flex h-14 max-w-7xl items-center gap-6 px-6">
          <Link href="/goals" className="flex items-center gap-2 text-sm font-semibold text-white">
            <span className="grid size-6 place-items-center rounded bg-emerald-400 text-xs font-bold text-slate-900">
              S
            </span>
            Switchboard
          </Link>
          <div className="flex items-center gap-1">
            <NavLink href="/goals">Goals</NavLink>
            <NavLink href="/approvals">Approvals</NavLink>
            <QuestionsNavLink />
            <RequestsNavLink />
            <NavLink href="/costs">Costs</NavLink>
            <NavLink href="/skills">Skills</NavLink>
            <NavLink href="/tokens">Tokens</NavLink>
            <NavLink href="/secrets">Secrets</NavLink>
            {operator ? <NavLink href="/runners">Runners</NavLink> : null}
            <NavLink href="/settings/notifications">Notifications</NavLink>
          </div>
          <div className="ml-auto flex items-center gap-3">
            <InboxLive initial={stamp} />
            <span className="text-sm text-slate-300" data-testid="owner-email">
              {owner.email}
            </span>
            <SignOutButton />
          </div>
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-6 py-8">{children}</main>
    </div>
  );
}
