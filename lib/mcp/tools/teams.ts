import { declarePlan, declarePlanInput, declarePlanOutput } from "@/lib/domain/plans/declare-plan";
import { listReady, listReadyInput, listReadyOutput } from "@/lib/domain/plans/list-ready";
import { removePlan, removePlanInput, removePlanOutput } from "@/lib/domain/plans/remove-plan";
import {
  updatePlanTask,
  updatePlanTaskInput,
  updatePlanTaskOutput,
} from "@/lib/domain/plans/update-plan-task";
import {
  listPendingReviews,
  listPendingReviewsInput,
  listPendingReviewsOutput,
} from "@/lib/domain/reviews/list-pending-reviews";
import {
  requestTermination,
  requestTerminationInput,
  requestTerminationOutput,
} from "@/lib/domain/reviews/request-termination";
import { signalReview, signalReviewInput, signalReviewOutput } from "@/lib/domain/reviews/signal-review";
import { createTeam, createTeamInput, createTeamOutput } from "@/lib/domain/teams/create-team";
import { spawnAgent, spawnAgentInput, spawnAgentOutput } from "@/lib/domain/teams/spawn-agent";
import {
  terminateChild,
  terminateChildInput,
  terminateChildOutput,
} from "@/lib/domain/teams/terminate-child";
import { defineTool } from "../registry";

export const declarePlanTool = defineTool({
  name: "declare_plan",
  title: "Declare a task plan (DAG)",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Declare your plan: a DAG of tasks, each run later by one spawned agent. Pure data: validates, saves the plan",
    "(plan_path) and returns each task's status (ready when it has no dependencies, else blocked). Then call",
    "spawn_agent for ready tasks.",
  ].join(" "),
  errors: [
    "empty_plan",
    "duplicate_task_id",
    "self_dep",
    "unknown_dep",
    "cycle_detected",
    "unknown_skill",
    "plan_already_declared",
  ],
  input: declarePlanInput,
  output: declarePlanOutput,
  handler: ({ caller }, input) => declarePlan(caller, input),
});

export const removePlanTool = defineTool({
  name: "remove_plan",
  title: "Remove your active plan",
  audience: "agent",
  readOnly: false,
  destructive: true,
  idempotent: false,
  description: "Drop your active plan so you can declare a new one. Your team is untouched.",
  errors: ["no_active_plan", "plan_in_use"],
  input: removePlanInput,
  output: removePlanOutput,
  handler: ({ caller }) => removePlan(caller),
});

export const spawnAgentTool = defineTool({
  name: "spawn_agent",
  title: "Spawn the agent of a ready plan task",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Spawn one agent for a ready task of your active plan; it joins your team (created on your first spawn:",
    "team_created=true) and receives the task with a [TASK ASSIGNMENT] block. remaining_ready lists what else you",
    "can spawn now. One spawn at a time.",
  ].join(" "),
  errors: [
    "no_active_plan",
    "unknown_task",
    "task_not_ready",
    "task_not_pending",
    "depth_exceeded",
    "unknown_skill",
    "concurrent_spawn",
  ],
  input: spawnAgentInput,
  output: spawnAgentOutput,
  handler: ({ caller }, input) => spawnAgent(caller, input),
});

export const listReadyTool = defineTool({
  name: "list_ready",
  title: "List the ready tasks of your plan",
  audience: "agent",
  readOnly: true,
  destructive: false,
  idempotent: true,
  description:
    "Ids of your active plan's tasks that can be spawned now (all dependencies done, not yet spawned). Call it after approvals.",
  errors: ["no_active_plan"],
  input: listReadyInput,
  output: listReadyOutput,
  handler: ({ caller }) => listReady(caller),
});

export const updatePlanTaskTool = defineTool({
  name: "update_plan_task",
  title: "Mark a plan task done or failed",
  audience: "agent",
  readOnly: false,
  destructive: true,
  idempotent: false,
  description:
    "Mark a task of your active plan that is not in flight as done (you did it yourself) or failed (abandoned); returns the ready set. In-flight tasks end through terminate_child instead.",
  errors: ["no_active_plan", "unknown_task", "task_in_flight", "task_not_pending"],
  input: updatePlanTaskInput,
  output: updatePlanTaskOutput,
  handler: ({ caller }, input) => updatePlanTask(caller, input),
});

export const signalReviewTool = defineTool({
  name: "signal_review",
  title: "Ask your leader to review your work",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Tell your leader your deliverables are ready: detail must contain [REVIEW REQUIRED] (or [ITERATION READY] for a",
    "progress report) and summarize deliverables, open questions and the leader's options. You stay alive: wait in",
    "read_inbox for the verdict (a terminate sentinel approves, a message asks for rework). Calling again supersedes",
    "the previous review.",
  ].join(" "),
  errors: ["envelope_missing"],
  input: signalReviewInput,
  output: signalReviewOutput,
  handler: ({ caller }, input) => signalReview(caller, input),
});

export const requestTerminationTool = defineTool({
  name: "request_termination",
  title: "Ask your leader to end you (work complete)",
  audience: "agent",
  readOnly: false,
  destructive: true,
  idempotent: false,
  description:
    "Declare your whole lifecycle's work complete and ask your leader to terminate you; then stop calling tools and wait. To also get a review, call signal_review first.",
  errors: ["plan_incomplete"],
  input: requestTerminationInput,
  output: requestTerminationOutput,
  handler: ({ caller }, input) => requestTermination(caller, input),
});

export const terminateChildTool = defineTool({
  name: "terminate_child",
  title: "Approve and end a child agent",
  audience: "agent",
  readOnly: false,
  destructive: true,
  idempotent: true,
  description: [
    "Your verdict on a child that signalled review (or requested termination): posts a terminate sentinel to its",
    "inbox (and to every team it leads) and marks its plan task done. force=true ends a child without a review and",
    "marks its task failed (audited). Calling it again changes nothing (already_terminating).",
  ].join(" "),
  errors: ["unknown_agent", "not_leader", "already_terminating", "child_not_pending_review"],
  input: terminateChildInput,
  output: terminateChildOutput,
  handler: ({ caller }, input) => terminateChild(caller, input),
});

export const listPendingReviewsTool = defineTool({
  name: "list_pending_reviews",
  title: "List your children's pending reviews",
  audience: "agent",
  readOnly: true,
  destructive: false,
  idempotent: true,
  errors: [],
  description:
    "Your direct children that signalled review and wait for your verdict, oldest first, with age_s and their summary. The text result is the contract's bare list; structuredContent wraps it as {reviews}.",
  input: listPendingReviewsInput,
  output: listPendingReviewsOutput,
  text: (out) => JSON.stringify(out.reviews),
  handler: ({ caller }) => listPendingReviews(caller),
});

export const createTeamTool = defineTool({
  name: "create_team",
  title: "Create a team (deprecated)",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description:
    "Deprecated: prefer declare_plan + spawn_agent. Creates a team you lead with one agent per role (never pass leader_id).",
  errors: [
    "depth_exceeded",
    "leader_override_attempted",
    "unknown_skill",
    "concurrent_create_team",
    "duplicate_member_descriptions",
  ],
  input: createTeamInput,
  output: createTeamOutput,
  handler: ({ caller }, input) => createTeam(caller, input),
});

export const TEAM_TOOLS = [
  createTeamTool,
  declarePlanTool,
  removePlanTool,
  spawnAgentTool,
  listReadyTool,
  updatePlanTaskTool,
  signalReviewTool,
  requestTerminationTool,
  terminateChildTool,
  listPendingReviewsTool,
];
