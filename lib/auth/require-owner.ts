import { redirect } from "next/navigation";
import { cache } from "react";
import { sessionOwner } from "@/lib/auth/next-auth";

/** The signed-in owner of this request; anyone else is sent to /signin. */
export const requireOwner = cache(async () => {
  const owner = await sessionOwner();
  if (!owner) redirect("/signin");
  return owner;
});
