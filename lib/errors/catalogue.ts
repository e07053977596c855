/**
 * Every error code Switchboard answers with, in one place: its HTTP status, the default next step for
 * an agent (a site may give a more precise one), the surfaces that use it, and what it means.
 * `DomainError` accepts only these codes; tool descriptions and docs/errors.md are generated from here
 * (`npm run docs:errors`). Codes are the contracts' own names (`unknown_recipient`, `ErrAlreadyClaimed`, …)
 * plus a few of ours; never rename one.
 */

/** mcp: tool results and the /mcp endpoint; rest: /api JSON; form: the web UI's server actions and pages; cli: `switchboard …`. */
export type Surface = "mcp" | "rest" | "form" | "cli";

export type CatalogueEntry = {
  /** The HTTP status when the error is an HTTP response (MCP tool errors travel inside a 200). */
  status: number;
  /** What the caller should do next, unless the throw site says something more precise. */
  hint: string;
  surfaces: readonly Surface[];
  /** One line: when this code is returned. */
  meaning: string;
};

const entry = (
  status: number,
  surfaces: readonly Surface[],
  meaning: string,
  hint: string,
): CatalogueEntry => ({ status, surfaces, meaning, hint });

export const CATALOGUE = {
  // ── Any surface ─────────────────────────────────────────────────────────────────────────────────────
  invalid_input: entry(
    422,
    ["mcp", "rest", "form", "cli"],
    "The input failed its schema or a rule; the message names each offending field (schema issues: details.issues).",
    "Fix the named field and call again; nothing was changed.",
  ),
  not_found: entry(
    404,
    ["mcp", "rest", "form", "cli"],
    "The object does not exist, or the caller may not see it (the two are never told apart).",
    "Check the id; you can only reach objects of your own goal (owners: their own goals).",
  ),
  forbidden: entry(
    403,
    ["rest"],
    "The caller is authenticated but not allowed to do this (e.g. a browser request from a foreign Origin).",
    "Call from the app's own origin, or as a caller that is allowed to.",
  ),
  unauthorized: entry(
    401,
    ["mcp", "rest"],
    "No valid credential: a missing, unknown or revoked API key or owner token, or no session.",
    "Send `Authorization: Bearer <agent API key or owner token>`, or sign in.",
  ),
  origin_not_allowed: entry(
    403,
    ["mcp"],
    "A browser Origin that is neither the app's own nor in SWITCHBOARD_ALLOWED_ORIGINS called /mcp.",
    "Call from an allowed origin (SWITCHBOARD_URL, SWITCHBOARD_ALLOWED_ORIGINS) or without an Origin header.",
  ),
  payload_too_large: entry(
    413,
    ["mcp", "rest"],
    "The request body is larger than SWITCHBOARD_MAX_BODY_BYTES.",
    "Send a smaller body (split the content).",
  ),
  internal_error: entry(
    500,
    ["mcp", "rest"],
    "An unexpected failure; the details are in the server log, never in the answer.",
    "Try again later; the operator has the details in the server log.",
  ),
  unknown_tool: entry(
    404,
    ["mcp"],
    "No tool of that name for a caller of this kind (agents and owners see different tools).",
    "Call tools/list to see the tools you can use.",
  ),
  review_gate_closed: entry(
    409,
    ["mcp"],
    "A direct child of yours waits for your review; until you respond, only the review tools are open.",
    "Review first: list_pending_reviews, then terminate_child to approve or send_message to ask for rework.",
  ),

  // ── Messaging ───────────────────────────────────────────────────────────────────────────────────────
  unknown_recipient: entry(
    404,
    ["mcp"],
    "`to` is not the agent_id of any agent.",
    "Call list_peers to find the agent_id of the agent you mean.",
  ),
  task_mismatch: entry(
    403,
    ["mcp"],
    "The recipient belongs to another goal.",
    "You can only message agents of your own goal; call list_peers(scope='all') to see them.",
  ),
  recipient_terminated: entry(
    409,
    ["mcp", "form"],
    "The recipient has terminated; its inbox is closed.",
    "Do not spawn a replacement on your own: escalate to your own leader.",
  ),
  inbox_full: entry(
    429,
    ["mcp"],
    "The recipient has SWITCHBOARD_INBOX_CAP (1000) unread messages, or SWITCHBOARD_INBOX_MAX_BYTES of unread text.",
    "Wait for the recipient to read its inbox, then send again.",
  ),

  // ── Questions to humans ─────────────────────────────────────────────────────────────────────────────
  gateway_unavailable: entry(
    503,
    ["mcp"],
    "No human gateway on this hub (SWITCHBOARD_HUMAN_GATEWAY=off), so the question cannot reach the owner.",
    "Decide yourself, or wait and ask your leader with send_message; the owner cannot be asked here.",
  ),
  user_declined: entry(
    409,
    ["mcp"],
    "The owner declined to answer; the reason is in details.reason.",
    "Do not ask the same question again; decide with what you have or ask your leader.",
  ),
  cancelled: entry(
    499,
    ["mcp"],
    "The waiting call was cancelled (the client went away); the question is still pending.",
    "Ask the identical question again to wait for it, or watch your inbox for the answer.",
  ),
  unknown_qid: entry(
    404,
    ["mcp", "rest"],
    "No pending question with that qid that you may see (details.status tells when it is closed).",
    "Use the qid of a pending [INBOX QUESTION] in your inbox; an answered question is closed.",
  ),
  not_holder: entry(
    403,
    ["mcp", "rest"],
    "The question is routed to someone else (details.holder); only its current holder may answer or escalate it.",
    "Leave it to its holder.",
  ),
  answer_count_mismatch: entry(
    422,
    ["mcp", "rest"],
    "The number of answers differs from the number of sub-questions.",
    "Give exactly one answer per sub-question, in order.",
  ),
  stale: entry(
    409,
    ["mcp"],
    "The question is no longer yours to escalate: answered, or it moved on in a race.",
    "Someone already answered or moved it; there is nothing left to do for it.",
  ),

  // ── Reviews and termination ─────────────────────────────────────────────────────────────────────────
  envelope_missing: entry(
    422,
    ["mcp"],
    "signal_review's detail is empty (details.reason detail_empty) or lacks a [REVIEW REQUIRED] / [ITERATION READY] marker (details.reason envelope_missing).",
    "Put [REVIEW REQUIRED] (done, please review) or [ITERATION READY] (progress report) in detail and call again.",
  ),
  plan_incomplete: entry(
    409,
    ["mcp"],
    "Your active plan has tasks that are not done or failed (details.unfinished).",
    "Finish them (spawn, approve, or update_plan_task done/failed) before requesting termination.",
  ),
  unknown_agent: entry(
    404,
    ["mcp"],
    "No agent with that agent_id in your goal.",
    "Call list_peers(scope='children') for the agents you lead.",
  ),
  not_leader: entry(
    403,
    ["mcp"],
    "You do not lead the team of that agent; only its direct leader may terminate it.",
    "Only an agent's direct leader can terminate it; ask that leader instead.",
  ),
  already_terminating: entry(
    409,
    ["mcp"],
    "A terminate sentinel is already in the agent's inbox, or it has ended (a no-op).",
    "Nothing to do: the sentinel is in its inbox (or it has ended).",
  ),
  child_not_pending_review: entry(
    409,
    ["mcp"],
    "The child has neither signalled review nor requested termination, so there is nothing to approve.",
    "Wait for its signal_review, send it rework with send_message, or pass force=true to end it anyway.",
  ),

  // ── Teams and plans ─────────────────────────────────────────────────────────────────────────────────
  depth_exceeded: entry(
    409,
    ["mcp"],
    "Your new team would be deeper than the goal's max_spawn_depth (details.depth, details.max_spawn_depth).",
    "Do the work yourself or hand it back to your leader; the plan stays declared (remove_plan to rethink).",
  ),
  leader_override_attempted: entry(
    422,
    ["mcp"],
    "The input set leader_id; you always lead the teams you create.",
    "Call create_team again without leader_id.",
  ),
  unknown_skill: entry(
    422,
    ["mcp"],
    "A skill named in the input does not resolve to a loadable skill (details.skills).",
    "Use one of the goal's skills (the owner manages them on the Skills page); built-ins: coordinator, engineer, reviewer, researcher.",
  ),
  concurrent_create_team: entry(
    409,
    ["mcp"],
    "You already have a create_team call in flight (one at a time per agent).",
    "Wait for it to return, then call create_team again.",
  ),
  concurrent_spawn: entry(
    409,
    ["mcp"],
    "You already have a spawn_agent call in flight (one at a time per agent).",
    "Wait for it to return, then call spawn_agent again.",
  ),
  duplicate_member_descriptions: entry(
    422,
    ["mcp"],
    "Every member has the same skill and description: they would all do the whole task in parallel.",
    "Give each role a distinct description, or pass consensus=true for deliberate parallel attempts.",
  ),
  empty_plan: entry(
    422,
    ["mcp"],
    "The plan has no tasks.",
    "Fix the plan and call declare_plan again; nothing was saved.",
  ),
  duplicate_task_id: entry(
    422,
    ["mcp"],
    "Two tasks of the plan share an id (details.task_id).",
    "Fix the plan and call declare_plan again; nothing was saved.",
  ),
  self_dep: entry(
    422,
    ["mcp"],
    "A task depends on itself (details.task_id).",
    "Fix the plan and call declare_plan again; nothing was saved.",
  ),
  unknown_dep: entry(
    422,
    ["mcp"],
    "A task depends on ids the plan does not declare (details.unknown_deps).",
    "Fix the plan and call declare_plan again; nothing was saved.",
  ),
  cycle_detected: entry(
    422,
    ["mcp"],
    "The dependencies form a cycle (details.cycle is the chain).",
    "Fix the plan and call declare_plan again; nothing was saved.",
  ),
  plan_already_declared: entry(
    409,
    ["mcp"],
    "You already have an active plan (details.plan_id).",
    "Keep working on it (list_ready), or call remove_plan first if you mean to replan.",
  ),
  no_active_plan: entry(409, ["mcp"], "You have no active plan.", "Declare one with declare_plan first."),
  plan_in_use: entry(
    409,
    ["mcp"],
    "Tasks of the plan are still in flight (details.in_flight lists them with their agent_id).",
    "Approve (terminate_child) or force-terminate (terminate_child force=true) those agents first.",
  ),
  unknown_task: entry(
    404,
    ["mcp"],
    "No task with that id in your active plan.",
    "Call list_ready, or check the ids you declared.",
  ),
  task_in_flight: entry(
    409,
    ["mcp"],
    "The plan task is run by a spawned agent (details.agent_id).",
    "End it with terminate_child (approve → done, force=true → failed).",
  ),
  task_not_pending: entry(
    409,
    ["mcp"],
    "The plan task is already spawned, done or failed (details.status).",
    "Only ready tasks can be spawned or marked; call list_ready.",
  ),
  task_not_ready: entry(
    409,
    ["mcp"],
    "The plan task waits for dependencies that are not done (details.unmet_deps).",
    "Approve the tasks it depends on first (terminate_child), then spawn it.",
  ),

  // ── Goals: task trees, claiming, verification (the goals contract's codes) ──────────────────────────
  ErrNotCoordinator: entry(
    403,
    ["mcp"],
    "Only the goal's coordinator may propose its task tree.",
    "Send your suggested tasks to the coordinator with send_message instead.",
  ),
  ErrProposalPending: entry(
    409,
    ["mcp"],
    "The goal already has another task tree awaiting the owner (details.proposal_message_id).",
    "Wait for the owner's decision (it arrives in your inbox via read_inbox), then propose again if rejected.",
  ),
  ErrGoalNotOpen: entry(
    409,
    ["mcp"],
    "The goal is not draft or active (details.status), so it takes no new tasks.",
    "Ask the owner to resume the goal, or stop proposing work for it.",
  ),
  ErrAlreadyClaimed: entry(
    409,
    ["mcp"],
    "Another agent already holds the task (details.assignee_id).",
    "Pick another approved task (list_tasks status=approved).",
  ),
  ErrTaskNotApproved: entry(
    409,
    ["mcp"],
    "The task is not approved and unassigned (details.status), e.g. not approved yet or cancelled.",
    "Only approved, unassigned tasks can be claimed; list_tasks status=approved lists them.",
  ),
  ErrAgentQuarantined: entry(
    403,
    ["mcp"],
    "You are quarantined (reputation below 0.3) and may not claim tasks.",
    "Your reputation fell below 0.3. Tell your leader; only the owner can lift the quarantine.",
  ),
  ErrNotTaskHolder: entry(
    403,
    ["mcp"],
    "The task is not claimed by you (details.assignee_id).",
    "Claim it first with claim_task (only the holder can complete a task).",
  ),
  ErrTaskNotInProgress: entry(
    409,
    ["mcp"],
    "The task is not claimed or in progress (details.status): it was completed, verified or cancelled.",
    "Nothing to complete; check list_tasks for its status.",
  ),
  ErrTaskNotAwaitingVerification: entry(
    409,
    ["mcp"],
    "The task is not awaiting verification (details.status): not finished yet, or already decided.",
    "Only a task its holder finished with complete_task can be verified, and only once.",
  ),
  ErrVerifierNotConfigured: entry(
    409,
    ["mcp"],
    "The task has no peer verifier (details.verifier is auto or command).",
    "Nothing to do: it is verified automatically, or a runner runs its command and decides.",
  ),
  ErrNotPermittedVerifier: entry(
    403,
    ["mcp"],
    "You are not the verifier named in the task's verifier_config (a holder never verifies its own task).",
    "Only the agent named in the task's verifier_config may verify it (never its own holder).",
  ),
  ErrProposalChanged: entry(
    409,
    ["rest", "form"],
    "The proposal's content is not the content decided on (content_hash differs).",
    "Reload the proposal, read it again and decide on what it says now.",
  ),
  ErrProposalNotPending: entry(
    409,
    ["rest", "form"],
    "The proposal was already decided (details.status).",
    "Reload: the decision was made already.",
  ),
  ErrTaskTerminal: entry(
    409,
    ["rest"],
    "The task is already done, failed or cancelled (details.status).",
    "Nothing to cancel.",
  ),

  // ── Owners, skills, agents (web UI, REST, CLI) ──────────────────────────────────────────────────────
  setup_done: entry(409, ["form"], "The first owner exists already; setup runs once.", "Sign in instead."),
  email_taken: entry(
    409,
    ["form", "cli"],
    "An owner with this email exists already.",
    "Use another email, or sign in as that owner.",
  ),
  name_taken: entry(
    409,
    ["rest", "form", "cli"],
    "The name is taken: a skill of that name, or an agent of that name in the goal, exists already.",
    "Pick another name, or edit the existing one.",
  ),

  // ── issue 14: secrets (docs/secrets.md) ─────────────────────────────────────────────────────────────
  request_not_open: entry(
    409,
    ["rest", "form"],
    "The resource request was already supplied or declined (details.status).",
    "Reload: the request was decided already. Manage the value on the Secrets page.",
  ),
  secret_key_invalid: entry(
    500,
    ["rest", "form", "cli"],
    "The secret key is unusable (details.reason): the key file is not the base64 of exactly 32 bytes, is open to others or owned by another user, is missing while secrets are stored, or the key opens none of the stored secrets; nothing is stored unencrypted.",
    "Restore the key file (mode 0600, the server's user) or SWITCHBOARD_SECRET_KEY from your backup; if the key is lost, `switchboard secret revoke-all --yes` (docs/secrets.md).",
  ),
  secret_undecryptable: entry(
    500,
    ["cli"],
    "A stored secret failed to decrypt (details.secret_id): a wrong key, or a ciphertext altered or moved to another row.",
    "Supply the value again (replace it on the Secrets page), or restore the right key (docs/secrets.md).",
  ),

  // ── Issue 13: agent proposals (the goals contract's codes), tool scopes, quarantine ─────────────────
  ErrSpawnDepthExceeded: entry(
    409,
    ["mcp", "rest", "form"],
    "The new agent would sit deeper than the goal's max_spawn_depth (your spawn_depth + 1 > details.max_spawn_depth).",
    "Do the work yourself, or ask your leader (who sits higher) to propose the specialist.",
  ),
  ErrDelegationCapExceeded: entry(
    403,
    ["mcp", "rest", "form"],
    "The proposal grants more than you hold: details.which names tool_scope (tools outside your own scope: details.excess), autonomy_tier (above yours) or budget (above your remaining grant).",
    "Propose within your own grant: only tools of your scope, a tier no higher than yours, a task budget within the goal's remaining budget.",
  ),
  ErrAgentNameTaken: entry(
    409,
    ["mcp", "rest", "form"],
    "Another active agent of the same owner already has this name (details.agent_id).",
    "Pick another name (lowercase letters, digits and '-') and propose again.",
  ),
  tool_not_in_scope: entry(
    403,
    ["mcp"],
    "The tool is outside your tool_scope (details.tool_scope lists what you may call).",
    "Use a tool of your scope, or ask your leader to do this step.",
  ),
  not_quarantined: entry(
    409,
    ["mcp", "rest", "form"],
    "The agent is not quarantined, so there is nothing to lift.",
    "Nothing to do.",
  ),

  // ── issue 11: the runner protocol (docs/runner.md) ──────────────────────────────────────────────────
  lease_lost: entry(
    409,
    ["rest"],
    "The runner no longer holds this launch (its lease expired, or the agent was launched again since).",
    "End the agent's process: another launch owns it now.",
  ),

  // ── issue 12: usage and budgets (docs/budgets.md) ───────────────────────────────────────────────────
  ErrGoalBudgetExceeded: entry(
    409,
    ["mcp", "rest"],
    "The goal is paused (its budget is spent, or the owner paused it, details.reason): work on it is refused until resume_goal.",
    "Stop starting work: report your usage, tell your leader (send_message) or the owner (ask_user), and wait for the goal to be resumed.",
  ),
  ErrTaskBudgetExceeded: entry(
    409,
    ["mcp"],
    "The task has spent its own budget (details: spent and budget); only this task is blocked, the goal goes on.",
    "Stop working on this task and tell your leader; the owner can raise the budget by approving a new tree.",
  ),
  unknown_model: entry(
    422,
    ["mcp"],
    "The model has no price in the price table (details.price_file names the file) and no cost_cents was given.",
    "Pass cost_cents, or use a model listed in the price table, or ask the operator to add it.",
  ),
  goal_finished: entry(
    409,
    ["mcp", "rest"],
    "The goal is completed or cancelled (details.status): it records no usage and cannot be paused or resumed.",
    "Nothing to do for this goal.",
  ),
  goal_not_paused: entry(
    409,
    ["mcp", "rest", "form"],
    "resume_goal on a goal that is not paused (details.status).",
    "Nothing to resume; the goal is running.",
  ),
  budget_still_exhausted: entry(
    409,
    ["mcp", "rest", "form"],
    "Resuming would leave the goal at or over its budget (details: spent and budget): raise the budget to resume.",
    "Pass new_budget_dollars_cents / new_budget_tokens above what the goal has spent.",
  ),
  // ── Issue 16: hardening ─────────────────────────────────────────────────────────────────────────────
  agent_retired: entry(
    401,
    ["mcp"],
    "The agent key belongs to an agent that has terminated, or to a goal that is completed or cancelled (details.reason); it will never act again.",
    "Stop: this agent's work is over. The owner can start a new agent if more work is needed.",
  ),
  method_not_allowed: entry(
    405,
    ["mcp"],
    "GET or DELETE on /mcp: the endpoint is stateless (no server-sent stream, no session to delete); only POST is served.",
    "Send JSON-RPC requests with POST.",
  ),
  setup_token_required: entry(
    403,
    ["form"],
    "The first owner can be created without a token only from the server's own machine; this request needs the setup token (wrong or missing).",
    "Copy the setup token from the server's console (or <data>/setup.token) into the form.",
  ),
  too_many_attempts: entry(
    429,
    ["form"],
    "Too many failed sign-ins for this email or from this address in the last 15 minutes.",
    "Wait a few minutes and try again.",
  ),
  rate_limited: entry(
    429,
    ["mcp"],
    "Too many calls from this credential: over SWITCHBOARD_CALLS_PER_S (HTTP 429 with Retry-After), or over SWITCHBOARD_OPEN_WAITS_PER_KEY blocking calls open at once (details.limit, details.retry_after_s).",
    "Wait retry_after_s seconds (or for one of your waiting calls to return), then call again.",
  ),
  batch_too_large: entry(
    413,
    ["mcp"],
    "A JSON-RPC batch with more messages than SWITCHBOARD_MAX_BATCH (details.max).",
    "Send fewer messages per request.",
  ),
  too_many_questions: entry(
    429,
    ["mcp"],
    "The agent already has SWITCHBOARD_MAX_OPEN_QUESTIONS questions open (details.max).",
    "Wait for answers to your open questions (they arrive in your inbox) before asking more.",
  ),

  // ── Issue 13: autonomy tiers and goal cancellation (docs/agents.md, docs/goals.md) ─────────────────
  approval_required: entry(
    409,
    ["mcp"],
    "Your autonomy tier needs your leader's approval for this call; a request went up the leader chain (details: qid, state requested|pending, approver, target; denied: the previous request's reason).",
    "Wait for the decision in your inbox (read_inbox), then call again if it was allowed; do something else meanwhile.",
  ),

  // ── Issue 16 §2: skills have an owner; built-ins are shared and read-only (docs/teams.md, "Skills") ─
  skill_builtin_read_only: entry(
    409,
    ["rest", "form"],
    "The skill is a built-in, shared by every owner: it cannot be edited or deleted (details.skill).",
    "Copy it to edit (POST /api/skills/{name}/copy, or Copy to edit on the Skills page): your copy of the same name replaces the built-in for your agents.",
  ),
  proposer_ended: entry(
    409,
    ["rest", "form"],
    "The agent that made the proposal has ended or is terminating, so the agent it proposed would report to nobody (details.proposer_id).",
    "Reject the proposal; its leader can propose the agent again.",
  ),
} as const satisfies Record<string, CatalogueEntry>;

/** A code of the catalogue; `DomainError` takes nothing else. */
export type ErrorCode = keyof typeof CATALOGUE;

export const ERROR_CODES = Object.keys(CATALOGUE) as ErrorCode[];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(CATALOGUE, code);
