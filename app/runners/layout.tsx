// Frame of the runners page: signed-in navigation.
import type { ReactNode } from "react";
import { OwnerShell } from "@/components/shell/owner-shell";

export default function RunnersLayout({ children }: { children: ReactNode }) {
  return <OwnerShell>{children}</OwnerShell>;
}
