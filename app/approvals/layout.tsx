// Frame of the approvals page: signed-in navigation.
import type { ReactNode } from "react";
import { OwnerShell } from "@/components/shell/owner-shell";

export default function ApprovalsLayout({ children }: { children: ReactNode }) {
  return <OwnerShell>{children}</OwnerShell>;
}
