import { z } from "zod";
import { defineTool } from "../registry";

export const whoamiTool = defineTool({
  name: "whoami",
  title: "Who am I",
  audience: "any",
  readOnly: true,
  destructive: false,
  idempotent: true,
  errors: [],
  description:
    "Return the identity Switchboard knows you by (from your credential): for an agent its agent_id, name and goal; for an owner the user id and email. Use it to check a connection.",
  input: z.strictObject({}),
  output: z.object({
    kind: z.enum(["agent", "owner"]),
    agent_id: z.string().optional(),
    name: z.string().optional(),
    goal_id: z.number().int().optional(),
    user_id: z.number().int().optional(),
    email: z.string().optional(),
  }),
  handler: async ({ caller }) =>
    caller.kind === "agent"
      ? {
          kind: "agent" as const,
          agent_id: String(caller.agentId),
          name: caller.name,
          goal_id: caller.goalId,
        }
      : { kind: "owner" as const, user_id: caller.userId, email: caller.email },
});
