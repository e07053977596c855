import { pauseGoal, pauseGoalInput, pauseGoalOutput } from "@/lib/domain/usage/pause-goal";
import { recordUsage, reportUsageInput, reportUsageOutput } from "@/lib/domain/usage/record-usage";
import { resumeGoal, resumeGoalInput, resumeGoalOutput } from "@/lib/domain/usage/resume-goal";
import { defineTool } from "../registry";

export const reportUsageTool = defineTool({
  name: "report_usage",
  title: "Report usage",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description: [
    "Report the tokens (and, if you know it, the cost) of work you did, when no Switchboard runner reports it for you: call it",
    "after each model turn. The cost is the list price from Switchboard's price table unless you pass cost_cents; a run on a",
    "subscription reports billing_type subscription (its list price is still recorded). task_id defaults to the task you hold.",
    "idempotency_key must be unique per report (the turn's id): a retry with the same key counts once. Works while the goal is",
    "paused (the turn was spent), so report before you stop.",
  ].join(" "),
  errors: ["unknown_model", "not_found", "goal_finished", "invalid_input"],
  input: reportUsageInput,
  output: reportUsageOutput,
  handler: async ({ caller }, input) => {
    const r = await recordUsage({
      agentId: caller.agentId,
      model: input.model,
      inputTokens: input.input_tokens,
      outputTokens: input.output_tokens,
      cacheReadTokens: input.cache_read_tokens,
      cacheWriteTokens: input.cache_write_tokens,
      costCents: input.cost_cents,
      taskId: input.task_id,
      billingType: input.billing_type,
      idempotencyKey: input.idempotency_key,
      source: "agent",
    });
    return {
      usage_id: r.usage_id,
      duplicate: r.duplicate,
      task_id: r.task_id,
      billing_code: r.billing_code,
      tokens: r.tokens,
      cost_cents: r.cost_cents,
      cost_micro_cents: r.cost_micro_cents,
      goal_status: r.goal_status,
    };
  },
});

export const resumeGoalTool = defineTool({
  name: "resume_goal",
  title: "Resume a goal",
  audience: "owner",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description:
    "Resume a goal previously paused by budget or manual action. A goal paused because its budget is spent resumes only with a budget above what it has spent: pass new_budget_dollars_cents and/or new_budget_tokens.",
  errors: ["not_found", "goal_not_paused", "goal_finished", "budget_still_exhausted", "invalid_input"],
  input: resumeGoalInput,
  output: resumeGoalOutput,
  handler: ({ caller }, input) => resumeGoal(caller.userId, input),
});

/** Ours (the contract has only resume_goal): the owner's hand pause over MCP, as `POST /api/goals/:id/pause`. */
export const pauseGoalTool = defineTool({
  name: "pause_goal",
  title: "Pause a goal",
  audience: "owner",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description:
    "Pause one of your goals by hand: every tool that starts or continues work for it refuses with ErrGoalBudgetExceeded (reason manual) until resume_goal; agents can still read, talk and report usage. Pausing a paused goal changes nothing.",
  errors: ["not_found", "goal_finished", "invalid_input"],
  input: pauseGoalInput,
  output: pauseGoalOutput,
  handler: ({ caller }, input) => pauseGoal(caller.userId, input.goal_id),
});
