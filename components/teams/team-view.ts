import { cache } from "react";
import { goalTeamView } from "@/lib/domain/teams/goal-team-view";

/** One read of the goal's team data per page render, shared by the three panels. */
export const teamView = cache(goalTeamView);
