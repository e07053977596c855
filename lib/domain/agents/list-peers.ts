import { z } from "zod";
import { read } from "@/lib/db";
import { agentStatus } from "./agents";

export const listPeersInput = z.strictObject({
  scope: z
    .enum(["team", "children", "all"])
    .default("team")
    .describe(
      "team (default): direct teammates; children: direct reports of teams you lead; all: the whole goal",
    ),
});

export const peerView = z.object({
  agent_id: z.string(),
  role: z.string(),
  team_id: z.string().nullable(),
  status: z
    .string()
    .describe("active | review_pending | termination_requested | quarantined | terminating | terminated"),
  is_leader_of: z.array(z.string()),
  name: z.string().nullable(),
});

/**
 * `list_peers`. "team": the members of the caller's team; an agent outside any team (registered by the
 * CLI, or before teams exist) gets the agents that share its leader. "children": members of the teams
 * the caller leads and agents whose leader it is. "all": every agent of the goal. The caller itself is
 * excluded from "team" and "children".
 */
export async function listPeers(
  caller: { agentId: number; goalId: number },
  scope: "team" | "children" | "all",
) {
  const { agents, teams } = await read(async ({ db }) => ({
    agents: await db.agent.findMany({ where: { goalId: caller.goalId }, orderBy: { id: "asc" } }),
    teams: await db.team.findMany({ where: { goalId: caller.goalId }, select: { id: true, leaderId: true } }),
  }));
  const me = agents.find((a) => a.id === caller.agentId);
  if (!me) return { peers: [] };
  const ledBy = (id: number) => teams.filter((t) => t.leaderId === id).map((t) => t.id);
  const myTeams = new Set(ledBy(me.id));
  const selected = agents.filter((a) => {
    if (scope === "all") return true;
    if (a.id === me.id) return false;
    if (scope === "children") return a.leaderId === me.id || (a.teamId !== null && myTeams.has(a.teamId));
    return me.teamId !== null ? a.teamId === me.teamId : a.leaderId === me.leaderId;
  });
  return {
    peers: selected.map((a) => ({
      agent_id: String(a.id),
      role: a.role,
      team_id: a.teamId,
      status: agentStatus(a),
      is_leader_of: ledBy(a.id),
      name: a.name,
    })),
  };
}
