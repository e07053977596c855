// Frame of the #requests page: signed-in navigation.
import type { ReactNode } from "react";
import { OwnerShell } from "@/components/shell/owner-shell";

export default function RequestsLayout({ children }: { children: ReactNode }) {
  return <OwnerShell>{children}</OwnerShell>;
}
