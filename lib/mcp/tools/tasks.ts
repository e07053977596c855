import { claimTask, claimTaskInput, claimTaskOutput } from "@/lib/domain/tasks/claim-task";
import { completeTask, completeTaskInput, completeTaskOutput } from "@/lib/domain/tasks/complete-task";
import { listTasks, listTasksInput, listTasksOutput } from "@/lib/domain/tasks/list-tasks";
import { verifyTask, verifyTaskInput, verifyTaskOutput } from "@/lib/domain/tasks/verify-task";
import { defineTool } from "../registry";

export const claimTaskTool = defineTool({
  name: "claim_task",
  title: "Claim a task",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Atomically claim an approved task of your goal; you become its holder (find tasks with list_tasks status=approved).",
    "When done, call complete_task.",
  ].join(" "),
  errors: ["ErrAlreadyClaimed", "ErrTaskNotApproved", "ErrAgentQuarantined", "not_found"],
  input: claimTaskInput,
  output: claimTaskOutput,
  handler: ({ caller }, input) => claimTask(caller, input.task_id),
});

export const completeTaskTool = defineTool({
  name: "complete_task",
  title: "Report a task finished",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Report a task you hold as finished, with a summary (and optional artifacts). It goes to awaiting_verification;",
    "its verifier then decides: auto → done at once; peer → the named agent calls verify_task; command → a runner runs the",
    "command (exit 0 approves). A failed verification reaches your inbox.",
  ].join(" "),
  errors: ["ErrNotTaskHolder", "ErrTaskNotInProgress", "not_found"],
  input: completeTaskInput,
  output: completeTaskOutput,
  handler: ({ caller }, input) => completeTask(caller, input),
});

export const verifyTaskTool = defineTool({
  name: "verify_task",
  title: "Verify a task",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description: [
    "Record your verdict (approve | reject, with a reason) on a task whose verifier_config names you as peer; you get a",
    "verification_request in your inbox when it is ready.",
  ].join(" "),
  errors: [
    "ErrTaskNotAwaitingVerification",
    "ErrVerifierNotConfigured",
    "ErrNotPermittedVerifier",
    "not_found",
  ],
  input: verifyTaskInput,
  output: verifyTaskOutput,
  handler: ({ caller }, input) => verifyTask(caller, input),
});

export const listTasksTool = defineTool({
  name: "list_tasks",
  title: "List your goal's tasks",
  audience: "agent",
  readOnly: true,
  destructive: false,
  idempotent: true,
  errors: [],
  description:
    "List the approved task tree of your goal (task_id, parent_id, status, assignee_id, verifier kind). status=approved lists the claimable ones.",
  input: listTasksInput,
  output: listTasksOutput,
  handler: ({ caller }, input) => listTasks(caller.goalId, input),
});
