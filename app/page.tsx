// Home: sends a fresh install to /setup, everyone else to their goals.
import { redirect } from "next/navigation";
import { ownerCount } from "@/lib/domain/owners/create-owner";

export const dynamic = "force-dynamic";

export default async function Home() {
  redirect((await ownerCount()) === 0 ? "/setup" : "/goals");
}
