import { z } from "zod";
import { read } from "@/lib/db";
import { activePlan, readyIds } from "./plan-state";

export const listReadyInput = z.strictObject({});
export const listReadyOutput = z.object({ ready: z.array(z.string()) });

/** `list_ready`: ids of the active plan's tasks whose dependencies are all done and that are not spawned. */
export async function listReady(caller: { agentId: number }) {
  const { tasks } = await read((u) => activePlan(u, caller.agentId));
  return { ready: readyIds(tasks) };
}
