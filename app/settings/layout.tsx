// Frame of the settings pages: signed-in navigation.
import type { ReactNode } from "react";
import { OwnerShell } from "@/components/shell/owner-shell";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return <OwnerShell>{children}</OwnerShell>;
}
