import { createHash } from "node:crypto";
import { type ReadUnit, read, write } from "@/lib/db";
import { USER_SENTINEL } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { activePlan } from "@/lib/domain/plans/plan-state";
import type { ProposeAgentInput } from "@/lib/domain/proposals/agent-proposal";
import { checkAgentProposal } from "@/lib/domain/proposals/propose-agent";
import { createQuestion, lockAsker } from "@/lib/domain/questions/ask-user";
import type { AnswerOut, SubQuestion } from "@/lib/domain/questions/schemas";
import { DomainError } from "@/lib/errors";
import { isTerminated } from "./terminated";
import { type AutonomyTier, tierRank } from "./tool-scope";

/**
 * Autonomy tiers, enforced per call (issue 13; docs/agents.md "Autonomy tiers"). One rule, run by
 * lib/mcp/server.ts before every agent tool call (after the review and budget gates, once the input is
 * valid):
 *
 * | tier | needs its leader's approval before |
 * |---|---|
 * | `autonomous` (the default) | nothing |
 * | `assisted` | `propose_agent`, `propose_task_tree`, `spawn_agent`, `create_team` (growing the team or the work) |
 * | `supervised` | the same, and each `claim_task`, and `send_message` to an agent outside its team |
 *
 * "Its team" for messaging: its leader, its teammates (same team, or the same leader), and the agents it
 * leads (directly or as members of a team it leads).
 *
 * The approval is a question (origin `autonomy`) that climbs the leader chain exactly like `ask_user`:
 * it lands in the leader's inbox as an `[INBOX QUESTION]` (Allow / Deny), the leader answers it with
 * `answer_question` or passes it up with `escalate_question`, and an agent whose leader is the owner
 * asks the owner (`/questions`). The gated call is refused at once with `approval_required` (it does not
 * block); the agent is told the decision in its inbox and calls again. What an Allow grants is bound to
 * its target: the task (`claim_task`), the recipient (`send_message`: that agent from then on), the plan
 * task (`spawn_agent`), or the exact input (`propose_agent`, `propose_task_tree`, `create_team`: a changed
 * proposal needs a new approval). A Deny (or the owner declining) is final for that request; calling
 * again asks again. A call that would fail anyway (a task that is not claimable, a terminated recipient,
 * a plan task that is not ready, a proposal its own checks refuse, a closed goal) is not held: the tool
 * answers with its own error, so a leader is never asked to approve what cannot happen.
 */
export const ALLOW = "Allow";
export const DENY = "Deny";
export const AUTONOMY_ORIGIN = "autonomy";

/** The tools an `assisted` agent needs approval for; `supervised` adds SUPERVISED_ONLY. */
export const ASSISTED_GATED = new Set(["propose_agent", "propose_task_tree", "spawn_agent", "create_team"]);
export const SUPERVISED_ONLY = new Set(["claim_task", "send_message"]);
/** Every tool the gate may hold (their error lists name `approval_required`). */
export const AUTONOMY_GATED = new Set([...ASSISTED_GATED, ...SUPERVISED_ONLY]);

/** Whether a tier needs approval for a tool at all (send_message: only outside the team, decided later). */
export function tierGates(tier: string | undefined, tool: string): boolean {
  const rank = tierRank(tier ?? "autonomous");
  if (rank >= tierRank("autonomous" satisfies AutonomyTier)) return false;
  if (ASSISTED_GATED.has(tool)) return true;
  return rank <= tierRank("supervised" satisfies AutonomyTier) && SUPERVISED_ONLY.has(tool);
}

type Caller = { agentId: number; goalId: number; autonomyTier?: string };
type Me = {
  id: number;
  name: string;
  goalId: number;
  leaderId: number | null;
  teamId: string | null;
  quarantinedAt: Date | null;
};
/** What the gate needs from the tool surface: the names of every agent tool (propose_agent's scope check). */
export type GateContext = { agentTools: readonly string[] };
/** Goal states that take proposals (propose_task_tree's own rule; a call outside them is the tool's to refuse). */
const OPEN_GOAL = ["draft", "active", "stuck"];
type Target = { key: string; what: string };

const contentHash = (args: unknown) =>
  createHash("sha256").update(JSON.stringify(args)).digest("hex").slice(0, 16);

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Whether `to` is in the caller's team for messaging (see above). An unknown recipient is left to send_message. */
async function inTeam(u: ReadUnit, me: Me, toId: number): Promise<boolean> {
  const to = await u.db.agent.findUnique({
    where: { id: toId },
    select: { id: true, goalId: true, leaderId: true, teamId: true },
  });
  if (!to || to.goalId !== me.goalId) return true;
  if (to.id === me.leaderId || to.leaderId === me.id) return true;
  if (me.teamId !== null && to.teamId === me.teamId) return true;
  if (me.leaderId !== null && to.leaderId === me.leaderId) return true;
  if (to.teamId === null) return false;
  return (await u.db.team.count({ where: { id: to.teamId, leaderId: me.id } })) > 0;
}

/** What the call would do, as the approver reads it; null when this call needs no approval. */
async function targetOf(
  u: ReadUnit,
  me: Me,
  tool: string,
  args: Record<string, unknown>,
  ctx: GateContext,
): Promise<Target | null> {
  switch (tool) {
    case "claim_task": {
      const id = Number(args.task_id);
      const task = await u.db.goalTask.findUnique({
        where: { id },
        select: { goalId: true, title: true, status: true, assigneeId: true },
      });
      // A claim that would fail anyway (another goal's task, not approved, taken, quarantined) is the tool's to refuse.
      if (task?.goalId !== me.goalId || task.status !== "approved" || task.assigneeId !== null) return null;
      if (me.quarantinedAt) return null;
      return { key: `task:${id}`, what: `claim goal task #${id} "${task.title.slice(0, 200)}"` };
    }
    case "send_message": {
      const to = str(args.to);
      if (!/^\d{1,15}$/.test(to) || (await inTeam(u, me, Number(to)))) return null;
      const rcpt = await u.db.agent.findUnique({
        where: { id: Number(to) },
        select: { name: true, status: true, terminateConsumed: true },
      });
      if (!rcpt || isTerminated(rcpt)) return null; // recipient_terminated is the tool's answer
      const name = rcpt.name;
      const preview = str(args.content).slice(0, 300);
      return {
        key: `agent:${to}`,
        what: `message ${name ?? "agent"} (#${to}), outside its team (first message: "${preview}")`,
      };
    }
    case "spawn_agent": {
      // Only a ready task of the caller's active plan can be spawned; anything else is the tool's to refuse.
      const plan = await activePlan(u, me.id).catch((e: unknown) => {
        if (e instanceof DomainError) return null;
        throw e;
      });
      const planTask = plan?.tasks.find((t) => t.key === str(args.task_id));
      if (planTask?.status !== "ready") return null;
      return {
        key: `plan_task:${str(args.task_id)}`,
        what: `spawn the agent of plan task "${str(args.task_id)}"`,
      };
    }
    case "propose_agent": {
      // The proposal's own checks first: a leader is never asked to approve a proposal that would be refused
      // (or one already pending); the tool then answers with the contract's code.
      try {
        const checked = await checkAgentProposal(
          u,
          { agentId: me.id, goalId: me.goalId },
          args as ProposeAgentInput,
          ctx.agentTools,
        );
        if (checked.same) return null;
      } catch (e) {
        if (e instanceof DomainError) return null;
        throw e;
      }
      return {
        key: `content:${contentHash(args)}`,
        what: `propose a new agent "${str(args.name)}" (tier ${str(args.autonomy_tier)}, tools: ${
          Array.isArray(args.tool_scope) ? args.tool_scope.join(", ") : ""
        }) to the owner`,
      };
    }
    case "propose_task_tree": {
      const goal = await u.db.goal.findUnique({
        where: { id: Number(args.goal_id) },
        select: { status: true },
      });
      if (Number(args.goal_id) !== me.goalId || !goal || !OPEN_GOAL.includes(goal.status)) return null;
      return { key: `content:${contentHash(args)}`, what: "propose a task tree to the owner" };
    }
    case "create_team":
      return {
        key: `content:${contentHash(args)}`,
        what: `create the team "${str(args.name)}" (${Array.isArray(args.roles) ? args.roles.length : 0} members)`,
      };
    default:
      return null;
  }
}

const approvalQuestion = (me: Me, tier: string, t: Target): SubQuestion[] => [
  {
    question:
      `Agent ${me.name} (#${me.id}, autonomy tier "${tier}") asks for approval to ${t.what}. Allow it?`.slice(
        0,
        2000,
      ),
    header: "Approval",
    multiSelect: false,
    options: [
      { label: ALLOW, description: "Let it make this call: it is told and calls the tool again." },
      { label: DENY, description: "Refuse it; say why (the agent is told).", requires_text: true },
    ],
  },
];

/** One approval request per agent, tool and target (stored as the question's fingerprint). */
const requestKey = (tool: string, target: Target) => `${AUTONOMY_ORIGIN}:${tool}:${target.key}`;

const allowed = (q: { status: string; answersJson: string | null }) =>
  q.status === "answered" &&
  (JSON.parse(q.answersJson ?? "[]") as AnswerOut[])[0]?.selected_labels[0] === ALLOW;

/**
 * The per-call gate. Autonomous callers (the default) pass without a database read. For a gated call:
 * an Allow for the same target lets it through; a pending request refuses with `approval_required`
 * (`state: "pending"`); otherwise a new request goes to the leader and the call is refused with
 * `state: "requested"` (after a Deny, `details.denied` carries the previous request and its reason).
 */
export async function enforceAutonomy(
  caller: Caller,
  tool: string,
  args: unknown,
  ctx: GateContext,
): Promise<void> {
  const tier = caller.autonomyTier ?? "autonomous";
  if (!tierGates(tier, tool)) return;
  const input = (args ?? {}) as Record<string, unknown>;
  // Read first: most gated calls of a supervised agent (messages inside its team, allowed targets) write nothing.
  const pre = await read(async (u) => {
    const me = await u.db.agent.findUnique({
      where: { id: caller.agentId },
      select: { id: true, name: true, goalId: true, leaderId: true, teamId: true, quarantinedAt: true },
    });
    if (!me) return null;
    const target = await targetOf(u, me, tool, input, ctx);
    if (!target) return null;
    const latest = await u.db.question.findFirst({
      where: {
        askerId: me.id,
        origin: AUTONOMY_ORIGIN,
        fingerprint: requestKey(tool, target),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { status: true, answersJson: true },
    });
    return latest && allowed(latest) ? null : { me, target };
  });
  if (!pre) return;
  const { me, target } = pre;
  const held = await write(async (u) => {
    await lockAsker(u, me.id);
    const fingerprint = requestKey(tool, target);
    const latest = await u.db.question.findFirst({
      where: { askerId: me.id, origin: AUTONOMY_ORIGIN, fingerprint },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    if (latest && allowed(latest)) return null;
    let qid = latest?.status === "pending" ? latest.id : null;
    const state = qid ? "pending" : "requested";
    const denied =
      latest && latest.status !== "pending"
        ? { qid: latest.id, reason: latest.declineReason ?? latest.answerText ?? null }
        : null;
    if (!qid) {
      qid = await createQuestion(
        u,
        { agentId: me.id, goalId: me.goalId },
        { questions: approvalQuestion(me, tier, target) },
        fingerprint,
        AUTONOMY_ORIGIN,
      );
    }
    const question = await u.db.question.findUniqueOrThrow({
      where: { id: qid },
      select: { holderId: true },
    });
    const approver = question.holderId === null ? USER_SENTINEL : String(question.holderId);
    await appendEvent(u, {
      goalId: me.goalId,
      name: "autonomy_gate.held",
      agentId: me.id,
      data: { tool, tier, target: target.key, qid, state, approver },
    });
    return { qid, state, approver, target, denied };
  });
  if (!held) return;
  throw new DomainError(
    "approval_required",
    `Your autonomy tier "${tier}" needs approval to ${held.target.what}. ${
      held.state === "pending" ? "The request is still waiting" : "A request went"
    } to ${held.approver === USER_SENTINEL ? "the owner" : `your leader (agent ${held.approver})`} (qid ${held.qid}).`,
    {
      details: {
        tool,
        tier,
        target: held.target.key,
        qid: held.qid,
        state: held.state,
        approver: held.approver,
        ...(held.denied ? { denied: held.denied } : {}),
      },
    },
  );
}

/** The decision reaches the agent that asked (system-answer.ts, for questions of origin `autonomy`). */
export function approvalOutcomeText(
  qid: string,
  questionText: string,
  answer: AnswerOut | undefined,
): string {
  const allow = answer?.selected_labels[0] === ALLOW;
  return allow
    ? `[APPROVED] qid=${qid}: ${questionText}\nAllowed: make the call again now.`
    : `[DENIED] qid=${qid}: ${questionText}\nDenied${answer?.text ? `: ${answer.text}` : "."} Do not make this call; ask your leader what to do instead.`;
}
