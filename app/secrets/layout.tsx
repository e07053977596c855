// Frame of the Secrets page: signed-in navigation.
import type { ReactNode } from "react";
import { OwnerShell } from "@/components/shell/owner-shell";

export default function SecretsLayout({ children }: { children: ReactNode }) {
  return <OwnerShell>{children}</OwnerShell>;
}
