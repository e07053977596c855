import { z } from "zod";
import { waitFor } from "@/lib/bus";
import { read, type Unit, write } from "@/lib/db";
import { insertKey } from "@/lib/domain/agents/agents";
import { notTerminatedWhere } from "@/lib/domain/agents/terminated";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { FINISHED_GOAL_STATUSES } from "@/lib/domain/constants";
import { appendEvent } from "@/lib/domain/events/append-event";
import { insertMessage } from "@/lib/domain/messages/insert-message";
import { secretsForLaunch } from "@/lib/domain/secrets/launch-env";
import { secretRedactor } from "@/lib/domain/secrets/redact";
import { renderPrompt, resolveSkill, resolveSkills } from "@/lib/domain/skills/skills";
import { type CommandJob, claimCommandJob, reportCommandVerdict } from "@/lib/domain/tasks/command-jobs";
import { recordUsage } from "@/lib/domain/usage/record-usage";
import { env } from "@/lib/env";
import { DomainError, notFound } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { RunnerIdentity } from "./tokens";

/**
 * Launch jobs (issue 11, docs/runner.md). Desired state, not requests: an agent should run when it is
 * managed by a runner (`runnerManaged`: the coordinator, spawned agents), has not terminated, is not
 * quarantined, its goal is not paused, completed or cancelled, and its run state allows it (queued; a
 * backoff that is over; a launch whose lease expired). A runner takes such an agent with a conditional
 * update on `launchSeq` (exactly one runner wins, as in claim-task.ts), holds it under a lease it renews,
 * and reports what happens. Every report carries the launch number: a report for an older launch is
 * refused (`lease_lost`), so a runner that lost its lease cannot overwrite the state of the new launch.
 */

/** The bus topic runners' long-polls wait on: a new launchable agent (or a restart) wakes them. */
export const LAUNCH_TOPIC = "runner:launch";
/** Crashes in a row after which an agent is `crashed` and not launched again. */
export const CRASH_LIMIT = 3;
const STOPPED_GOAL = ["paused", ...FINISHED_GOAL_STATUSES];
const OUTPUT_CAP = 2000;

/** `stopped`: the owner stopped it (Stop on the goal page); not launched until restarted. */
export type RunState = "queued" | "starting" | "running" | "backoff" | "exited" | "crashed" | "stopped";

const leaseMs = () => env().SWITCHBOARD_RUNNER_LEASE_S * 1000;
/** The runner instance as recorded on the agent: the token's id and the instance name it reports. */
const holderOf = (r: RunnerIdentity, instance: string) => `${r.tokenId}:${instance}`;

export const pollInput = z.strictObject({
  instance: z.string().min(1).max(200),
  runtimes: z
    .array(z.enum(["claude-code", "command"]))
    .max(5)
    .default([]),
  agent_slots: z.number().int().min(0).max(10_000).default(0),
  verify_slots: z.number().int().min(0).max(10_000).default(0),
  running: z.number().int().min(0).max(10_000).default(0),
  wait_s: z.number().min(0).max(60).default(0),
});

export type AgentJob = {
  kind: "agent";
  agent_id: number;
  goal_id: number;
  launch: number;
  name: string;
  role: string;
  runtime: "claude-code" | "command";
  command: { cmd: string; args?: string[] } | null;
  model: string | null;
  /** claude-code: the template's permission mode (null: `default`) and the runtime tools it allows. */
  permission_mode: string | null;
  allowed_tools: string[];
  /**
   * The template's limits (docs/runner.md, "Limits"; null: none). Per launch, enforced by the runner:
   * completed turns (claude-code) and wall-clock minutes. Per agent over all launches, enforced by the hub
   * at lease renewal (here for information): recorded spend in cents.
   */
  max_turns?: number | null;
  max_minutes?: number | null;
  max_cost_cents?: number | null;
  system_prompt: string;
  env: Record<string, string>;
  /**
   * File secrets, NAME → base64 of the bytes: the runner writes each to a 0600 file of a private directory
   * and sets $NAME to its path (docs/secrets.md, "Files"). Absent when there are none.
   */
  secret_files?: Record<string, string>;
  resume_session_id: string | null;
  /** The lease's length: renew well within it. */
  lease_s: number;
};
export type VerifyJob = { kind: "verify" } & CommandJob;
export type RunnerJob = AgentJob | VerifyJob;

function launchableWhere(now: Date) {
  return {
    runnerManaged: true,
    ...notTerminatedWhere,
    quarantinedAt: null,
    goal: { status: { notIn: STOPPED_GOAL } },
    OR: [
      { runState: "queued" },
      { runState: "backoff", relaunchAt: { lte: now } },
      { runState: { in: ["starting", "running"] }, leaseUntil: { lt: now } },
    ],
  };
}

/**
 * The owner's secrets for this launch (docs/secrets.md), in the job's environment only: user and agent
 * scopes, and the goal task the agent holds, if any (task > agent > user). Our own SWITCHBOARD_* variables
 * win over a secret of the same name. A secret that fails to decrypt fails the poll (logged; the launch's
 * lease then expires and it is retried), never a launch without it.
 */
async function withSecrets(job: AgentJob): Promise<AgentJob> {
  const held = await read(({ db }) =>
    db.goalTask.findFirst({
      where: { assigneeId: job.agent_id, status: { in: ["claimed", "in_progress"] } },
      select: { id: true },
    }),
  );
  const secrets = await secretsForLaunch(job.agent_id, held?.id);
  const files = Object.fromEntries(Object.entries(secrets.files).filter(([name]) => !(name in job.env)));
  return {
    ...job,
    env: { ...secrets.env, ...job.env },
    ...(Object.keys(files).length > 0 ? { secret_files: files } : {}),
  };
}

/** Take one launchable agent whose template's runtime the runner offers; null when there is none. */
async function takeAgent(r: RunnerIdentity, instance: string, runtimes: string[]): Promise<AgentJob | null> {
  if (runtimes.length === 0) return null;
  // A read first: an idle runner re-checks every half second, and most checks find nothing to take.
  const any = await read(({ db }) =>
    db.agent.findFirst({ where: launchableWhere(new Date()), select: { id: true } }),
  );
  if (!any) return null;
  return write(async (u) => {
    const now = new Date();
    const candidates = await u.db.agent.findMany({
      where: launchableWhere(now),
      orderBy: { id: "asc" },
      take: 20,
      include: { goal: { select: { title: true, description: true, ownerId: true } } },
    });
    if (candidates.length === 0) return null;
    // Each agent's template: its goal owner's own skill of that name, else the built-in (issue 16 §2).
    const withSkill = candidates.filter((a): a is typeof a & { skill: string } => !!a.skill);
    const resolved = await resolveSkills(
      u,
      withSkill.map((a) => ({ ownerId: a.goal.ownerId, name: a.skill })),
    );
    const skills = new Map(withSkill.map((a, i) => [a.id, resolved[i] ?? undefined]));
    for (const a of candidates) {
      const skill = skills.get(a.id);
      const runtime = skill?.runtime === "command" ? "command" : "claude-code";
      if (!runtimes.includes(runtime)) continue;
      const { count } = await u.db.agent.updateMany({
        where: { id: a.id, launchSeq: a.launchSeq, ...launchableWhere(now) },
        data: {
          runState: "starting",
          runnerInstance: holderOf(r, instance),
          launchSeq: a.launchSeq + 1,
          leaseUntil: new Date(now.getTime() + leaseMs()),
          runStartedAt: null,
        },
      });
      if (count !== 1) continue;
      // The previous launch ran and its runner vanished (the lease expired): its totals are closed here.
      if (a.runStartedAt && (a.runState === "starting" || a.runState === "running")) {
        await appendRunCost(u, a, a.launchSeq, "lease_expired", now);
      }
      const leader = a.leaderId ? await u.db.agent.findUnique({ where: { id: a.leaderId } }) : null;
      const prompt = a.systemPrompt ?? (skill ? renderPrompt(skill, a.role) : "");
      const identity = `\n\nYou are agent ${a.name} (#${a.id}), role ${a.role}, on goal #${a.goalId} "${a.goal.title}". Your leader: ${leader ? `${leader.name} (#${leader.id})` : "the owner"}.${a.teamId ? ` Your team: ${a.teamId}.` : ""}`;
      return {
        kind: "agent",
        agent_id: a.id,
        goal_id: a.goalId,
        launch: a.launchSeq + 1,
        name: a.name,
        role: a.role,
        runtime,
        command: (skill?.command as AgentJob["command"] | undefined) ?? null,
        model: a.model ?? skill?.model ?? null,
        permission_mode: skill?.permission_mode ?? null,
        allowed_tools: skill?.allowed_tools ?? [],
        max_turns: skill?.max_turns ?? null,
        max_minutes: skill?.max_minutes ?? null,
        max_cost_cents: skill?.max_cost_cents ?? null,
        system_prompt: prompt + identity,
        env: {
          ...(skill?.env ?? {}),
          SWITCHBOARD_AGENT_ID: String(a.id),
          SWITCHBOARD_AGENT_NAME: a.name,
          SWITCHBOARD_AGENT_ROLE: a.role,
          SWITCHBOARD_GOAL_ID: String(a.goalId),
          SWITCHBOARD_GOAL_TITLE: a.goal.title,
          SWITCHBOARD_GOAL_DESCRIPTION: a.goal.description,
          SWITCHBOARD_TASK_ID: a.planTaskId ?? "",
          SWITCHBOARD_TEAM_ID: a.teamId ?? "",
          SWITCHBOARD_LEADER_ID: a.leaderId ? String(a.leaderId) : "",
        },
        resume_session_id: a.runtimeSessionId,
        lease_s: env().SWITCHBOARD_RUNNER_LEASE_S,
      } satisfies AgentJob;
    }
    return null;
  }, "runner.take");
}

/**
 * A runner's long-poll: the first job it has room for (an agent launch, else a command verification),
 * waiting up to `wait_s` seconds, woken by the bus when an agent becomes launchable. Records the
 * runner's reported load (capacity, running) on its token, which the hub shows.
 */
export async function pollJob(
  r: RunnerIdentity,
  input: z.input<typeof pollInput>,
  signal?: AbortSignal,
): Promise<{ job: RunnerJob | null }> {
  const p = pollInput.parse(input);
  await write(({ db }) =>
    db.runnerToken.update({
      where: { id: r.tokenId },
      data: {
        lastSeenAt: new Date(),
        statusJson: JSON.stringify({
          instance: p.instance,
          runtimes: p.runtimes,
          running: p.running,
          free_agent_slots: p.agent_slots,
        }),
      },
    }),
  );
  const check = async (): Promise<RunnerJob | undefined> => {
    if (p.agent_slots > 0) {
      const job = await takeAgent(r, p.instance, p.runtimes);
      if (job) return withSecrets(job);
    }
    if (p.verify_slots > 0) {
      const job = await claimCommandJob(holderOf(r, p.instance));
      if (job) return { kind: "verify", ...job };
    }
    return undefined;
  };
  const job = await waitFor({
    topics: [LAUNCH_TOPIC],
    check,
    timeoutMs: p.wait_s * 1000,
    recheckMs: 500,
    signal,
  });
  return { job: job ?? null };
}

export const verdictInput = z.strictObject({
  instance: z.string().min(1).max(200),
  approve: z.boolean(),
  reason: z.string().max(10_000),
});

/** The verdict of a command verification this runner took (false: it no longer holds the job). */
export async function reportVerdict(r: RunnerIdentity, taskId: number, input: z.input<typeof verdictInput>) {
  const v = verdictInput.parse(input);
  const recorded = await reportCommandVerdict(holderOf(r, v.instance), taskId, v);
  return { recorded };
}

export const launchRef = z.strictObject({
  instance: z.string().min(1).max(200),
  launch: z.number().int().positive(),
});

/** The agent as this launch holds it, or `lease_lost` (not found: `not_found`). */
async function heldAgent(u: Unit, r: RunnerIdentity, agentId: number, ref: z.output<typeof launchRef>) {
  const a = await u.db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
  if (!a?.runnerManaged) throw notFound(`agent ${agentId}`);
  if (a.launchSeq !== ref.launch || a.runnerInstance !== holderOf(r, ref.instance)) {
    throw new DomainError(
      "lease_lost",
      `launch ${ref.launch} of agent ${agentId} is not held by this runner`,
      {
        details: { agent_id: agentId, launch: ref.launch, current_launch: a.launchSeq },
      },
    );
  }
  return a;
}

/**
 * A fresh API key for the launched agent (shown once, to the runner that holds the launch): every
 * earlier key of the agent is revoked, so a key of a previous launch (or of a dead runner) stops working.
 */
export async function issueLaunchKey(r: RunnerIdentity, agentId: number, input: z.input<typeof launchRef>) {
  const ref = launchRef.parse(input);
  return write(async (u) => {
    const a = await heldAgent(u, r, agentId, ref);
    return { api_key: await insertKey(u.db, a.id, true) };
  }, "runner.key");
}

/** What the runner does with a running agent: keep it, end it cleanly, or end it now. */
export type LeaseAction = "continue" | "stop" | "kill";

/**
 * Renew a launch's lease, answering what should happen to the agent: `kill` when the lease is lost or the
 * termination was forced (watchdog grace, `terminate_child force`: a `terminate.forced` event), `stop`
 * when the agent consumed its terminate sentinel, is quarantined, or its goal is paused, completed or
 * cancelled; else `continue` (the lease extended).
 */
export async function renewLease(
  r: RunnerIdentity,
  agentId: number,
  input: z.input<typeof launchRef>,
): Promise<{ action: LeaseAction }> {
  const ref = launchRef.parse(input);
  return write(async (u) => {
    let a: Awaited<ReturnType<typeof heldAgent>>;
    try {
      a = await heldAgent(u, r, agentId, ref);
    } catch (e) {
      if (e instanceof DomainError && e.code === "lease_lost") return { action: "kill" as const };
      throw e;
    }
    const ending = a.terminatePostedAt !== null || a.status === "terminated" || a.terminateConsumed;
    if (ending) {
      const forced = await u.db.event.findFirst({
        where: { goalId: a.goalId, agentId: a.id, name: "terminate.forced" },
        select: { id: true },
      });
      if (forced) return { action: "kill" as const };
    }
    if (a.status === "terminated" || a.terminateConsumed) return { action: "stop" as const };
    if (a.runState === "stopped") return { action: "stop" as const };
    if (a.quarantinedAt || STOPPED_GOAL.includes(a.goal.status)) return { action: "stop" as const };
    if (await costLimitReached(u, a)) return { action: "stop" as const };
    await u.db.agent.update({ where: { id: a.id }, data: { leaseUntil: new Date(Date.now() + leaseMs()) } });
    return { action: "continue" as const };
  }, "runner.renew");
}

/** What a launch-limit stop records as the run error's prefix and the events' reason. */
export const LIMIT_REASONS = {
  max_turns: "limit.max_turns",
  max_minutes: "limit.max_minutes",
  max_cost_cents: "limit.max_cost_cents",
} as const;

/**
 * The hub's per-agent spend limit (the template's `max_cost_cents`, read live so an edit counts at the next
 * renewal): once the agent's recorded spend over all its launches reaches it, the agent becomes `stopped`
 * (not relaunched until the owner restarts it), its run error names the limit, and its leader and the owner
 * are told once. The renewal then answers `stop`.
 */
async function costLimitReached(
  u: Unit,
  a: {
    id: number;
    goalId: number;
    teamId: string | null;
    name: string;
    leaderId: number | null;
    skill: string | null;
    launchSeq: number;
    goal: { ownerId: number };
  },
): Promise<boolean> {
  if (!a.skill) return false;
  // The agent's template as its goal owner resolves it (issue 16 §2).
  const skill = await resolveSkill(u, a.goal.ownerId, a.skill);
  const max = skill?.max_cost_cents;
  if (!max) return false;
  const sum = await u.db.usage.aggregate({ where: { agentId: a.id }, _sum: { cents: true, micros: true } });
  const spent = (sum._sum.cents ?? 0) + (sum._sum.micros ?? 0) / 1_000_000;
  if (spent < max) return false;
  const { count } = await u.db.agent.updateMany({
    where: { id: a.id, launchSeq: a.launchSeq, runState: { in: ["starting", "running"] } },
    data: {
      runState: "stopped",
      relaunchAt: null,
      runError: `${LIMIT_REASONS.max_cost_cents}: spent ${fmtCents(spent)} of the template's limit of ${fmtCents(max)}`,
    },
  });
  if (count !== 1) return true;
  await appendEvent(u, {
    goalId: a.goalId,
    agentId: a.id,
    teamId: a.teamId,
    name: "agent_limit_reached",
    data: { reason: LIMIT_REASONS.max_cost_cents, spent_cents: spent, limit_cents: max, launch: a.launchSeq },
  });
  await tellLimit(
    u,
    a,
    `[RUNNER] Agent ${a.name} (#${a.id}) reached its spend limit (max_cost_cents of template ${a.skill}: spent ${fmtCents(spent)} of ${fmtCents(max)}) and is stopped. To let it go on, raise the limit on the Skills page and Restart it (the goal page's Restart, or \`switchboard agent restart ${a.id}\`); or end it (Terminate, or terminate_child).`,
    LIMIT_REASONS.max_cost_cents,
  );
  return true;
}

const fmtCents = (c: number) => `$${(c / 100).toFixed(2)}`;

/** The one notice of a limit reached: to the agent's leader's inbox and to the owner in the goal channel. */
async function tellLimit(
  u: Unit,
  a: { id: number; goalId: number; leaderId: number | null },
  text: string,
  reason: string,
) {
  const meta = {
    about: "agent_limit_reached",
    agent_id: String(a.id),
    reason,
    actions: ["restart", "terminate"],
  };
  if (a.leaderId) {
    await insertMessage(u, {
      goalId: a.goalId,
      recipientAgentId: a.leaderId,
      sender: { kind: "system" },
      kind: "system",
      content: text,
      meta,
    });
  }
  await postToGoalChannel(u, a.goalId, text, meta);
}

export const stateInput = launchRef.extend({
  state: z.enum(["running", "exited", "crashed"]),
  /** The runner ended it on the hub's `stop`/`kill` answer (not a crash, whatever the exit code). */
  stopped: z.boolean().default(false),
  runtime: z.string().max(40).optional(),
  exit_code: z.number().int().nullish(),
  signal: z.string().max(40).nullish(),
  error: z.string().max(OUTPUT_CAP).nullish(),
  /** The runtime found that this launch cannot work (no model credential, refused by the model API): a
   * crash (backoff, the count) whose reason the owner is shown. */
  launch_failed: z.boolean().default(false),
  /** The runner ended this launch on one of the template's per-launch limits (exited, not relaunched). */
  limit: z.enum(["max_turns", "max_minutes"]).optional(),
  /** Turns the launch completed (reported with a limit). */
  turns: z.number().int().min(0).optional(),
});

/**
 * A launch's state as the runner sees it. `running`: `agent_started`. `exited` (exit 0, or ended on the
 * hub's answer): `agent_completed` unless the agent's end was recorded already (consuming its terminate
 * sentinel records it); an agent stopped because its goal was paused (or its runner shut down) goes back
 * to `queued` (it runs again when it may). `crashed`: restart after a backoff that doubles; the third crash in a row makes
 * it `crashed` for good, and its leader and the owner are told once.
 */
export async function reportState(r: RunnerIdentity, agentId: number, input: z.input<typeof stateInput>) {
  const s = stateInput.parse(input);
  return write(async (u) => {
    const a = await heldAgent(u, r, agentId, s);
    const now = new Date();
    const terminated = a.status === "terminated" || a.terminateConsumed;
    const base = { goalId: a.goalId, agentId: a.id, teamId: a.teamId };
    if (s.state === "running") {
      const { count } = await u.db.agent.updateMany({
        where: { id: a.id, launchSeq: s.launch, runState: "starting" },
        data: { runState: "running", leaseUntil: new Date(now.getTime() + leaseMs()), runStartedAt: now },
      });
      if (count === 1) {
        await appendEvent(u, {
          ...base,
          name: "agent_started",
          data: {
            runner: a.runnerInstance,
            launch: s.launch,
            runtime: s.runtime ?? null,
            resumed_session: a.runtimeSessionId,
          },
        });
      }
      return { run_state: "running" as RunState };
    }
    // The owner stopped it (Stop): whatever the exit, it stays stopped until restarted.
    if (a.runState === "stopped") {
      await u.db.agent.update({
        where: { id: a.id },
        data: { leaseUntil: null, crashStreak: 0, relaunchAt: null },
      });
      if (!terminated) {
        await appendEvent(u, {
          ...base,
          name: "agent_completed",
          data: {
            reason: a.runError?.startsWith(LIMIT_REASONS.max_cost_cents)
              ? LIMIT_REASONS.max_cost_cents
              : "stopped_by_owner",
            exit_code: s.exit_code ?? null,
            signal: s.signal ?? null,
            launch: s.launch,
          },
        });
      }
      return { run_state: "stopped" as RunState };
    }
    // A per-launch limit of the template ended it (the runner stopped it cleanly): exited, not relaunched
    // until the owner restarts it; its leader and the owner are told.
    if (s.limit && !s.stopped) {
      const reason = LIMIT_REASONS[s.limit];
      const what = s.limit === "max_turns" ? `${s.turns ?? "its"} turns` : "its time";
      await u.db.agent.update({
        where: { id: a.id },
        data: {
          runState: "exited",
          leaseUntil: null,
          crashStreak: 0,
          relaunchAt: null,
          runError: `${reason}: the launch ended after ${what} (the template's ${s.limit})`,
        },
      });
      await appendRunCost(u, a, s.launch, "exited", now);
      if (!terminated) {
        await appendEvent(u, {
          ...base,
          name: "agent_completed",
          data: {
            reason,
            exit_code: s.exit_code ?? null,
            signal: s.signal ?? null,
            launch: s.launch,
            ...(s.turns !== undefined ? { turns: s.turns } : {}),
          },
        });
        await tellLimit(
          u,
          a,
          `[RUNNER] Agent ${a.name} (#${a.id}) reached the ${s.limit} limit of its template${a.skill ? ` ${a.skill}` : ""} and exited. Restart it to give it another launch (the goal page's Restart, or \`switchboard agent restart ${a.id}\`), or end it (Terminate, or terminate_child).`,
          reason,
        );
      }
      return { run_state: "exited" as RunState };
    }
    const crashed = s.state === "crashed" && !s.stopped;
    if (!crashed) {
      // Stopped by the hub (a paused goal, a quarantine, a runner shutting down) and not ending: it runs
      // again when it may. Ended, a terminate sentinel on its way (the watchdog's grace ends it), or its goal
      // completed or cancelled: exited.
      const requeue =
        s.stopped &&
        !terminated &&
        a.terminatePostedAt === null &&
        !FINISHED_GOAL_STATUSES.includes(a.goal.status);
      const runState: RunState = requeue ? "queued" : "exited";
      await u.db.agent.update({
        where: { id: a.id },
        data: { runState, leaseUntil: null, crashStreak: 0, relaunchAt: null, runError: null },
      });
      await appendRunCost(u, a, s.launch, requeue ? "stopped" : "exited", now);
      if (!terminated) {
        await appendEvent(u, {
          ...base,
          name: "agent_completed",
          data: {
            reason: requeue ? "stopped" : "exited",
            exit_code: s.exit_code ?? null,
            signal: s.signal ?? null,
            launch: s.launch,
          },
        });
      }
      return { run_state: runState };
    }
    // The runner's error text may quote the program's output: no secret value in the event or the notice.
    const error = s.error
      ? (await secretRedactor(u, { id: a.id, goalId: a.goalId, ownerId: a.goal.ownerId }))(s.error)
      : null;
    const streak = a.crashStreak + 1;
    const final = streak >= CRASH_LIMIT || terminated;
    const delay = env().SWITCHBOARD_RUNNER_BACKOFF_MS * 2 ** (streak - 1);
    const runState: RunState = final ? "crashed" : "backoff";
    await u.db.agent.update({
      where: { id: a.id },
      data: {
        runState,
        crashStreak: streak,
        leaseUntil: null,
        relaunchAt: final ? null : new Date(now.getTime() + delay),
        runError: s.error ?? (s.exit_code != null ? `exit code ${s.exit_code}` : (s.signal ?? "crashed")),
      },
    });
    await appendRunCost(u, a, s.launch, "crashed", now);
    await appendEvent(u, {
      ...base,
      name: "agent_crashed",
      data: {
        crashes_in_a_row: streak,
        exit_code: s.exit_code ?? null,
        signal: s.signal ?? null,
        error,
        launch: s.launch,
        restart_in_ms: final ? null : delay,
        ...(s.launch_failed ? { launch_failed: true } : {}),
      },
    });
    if (final && !terminated) await tellCrashed(u, a, streak, error);
    if (!final) u.notify(LAUNCH_TOPIC);
    return { run_state: runState };
  }, "runner.state");
}

/**
 * `run.cost` (the original orchestrator's name): the totals of one launch, appended when it ends (exit,
 * crash, stop) or, for a launch whose runner vanished, when the next launch takes the agent. Sums the
 * usage recorded for the agent since the launch reported running — the runner's `turn.usage` reports and
 * whatever the agent reported itself with `report_usage` (a `command` agent). Nothing for a launch that
 * never ran.
 */
async function appendRunCost(
  u: Unit,
  a: { id: number; goalId: number; teamId: string | null; runStartedAt: Date | null },
  launch: number,
  reason: "exited" | "stopped" | "crashed" | "lease_expired",
  now: Date,
) {
  if (!a.runStartedAt) return;
  const rows = await u.db.usage.findMany({
    where: { agentId: a.id, createdAt: { gte: a.runStartedAt } },
    select: {
      inputTokens: true,
      outputTokens: true,
      cacheReadTokens: true,
      cacheWriteTokens: true,
      tokens: true,
      cents: true,
      micros: true,
    },
  });
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((n, r) => n + r[k], 0);
  const cents = sum("cents") + sum("micros") / 1_000_000;
  await appendEvent(u, {
    goalId: a.goalId,
    agentId: a.id,
    teamId: a.teamId,
    name: "run.cost",
    data: {
      launch,
      reason,
      reports: rows.length,
      input_tokens: sum("inputTokens"),
      output_tokens: sum("outputTokens"),
      cache_read_tokens: sum("cacheReadTokens"),
      cache_write_tokens: sum("cacheWriteTokens"),
      tokens: sum("tokens"),
      cost_usd: Number((cents / 100).toFixed(6)),
      duration_s: Math.round((now.getTime() - a.runStartedAt.getTime()) / 1000),
    },
  });
}

/** The one notice of a `crashed` agent: to its leader's inbox and to the owner in the goal channel. */
async function tellCrashed(
  u: Unit,
  a: { id: number; goalId: number; name: string; leaderId: number | null },
  crashes: number,
  error: string | null,
) {
  const text = `[RUNNER] Agent ${a.name} (#${a.id}) crashed ${crashes} times in a row and is not restarted${error ? ` (last error: ${error.slice(0, 300)})` : ""}. Restart it (the goal page's Restart, or \`switchboard agent restart ${a.id}\`), or end it (the goal page's Terminate, or terminate_child).`;
  if (a.leaderId) {
    await insertMessage(u, {
      goalId: a.goalId,
      recipientAgentId: a.leaderId,
      sender: { kind: "system" },
      kind: "system",
      content: text,
      meta: { about: "agent_crashed", agent_id: String(a.id), actions: ["restart", "terminate"] },
    });
  }
  await postToGoalChannel(u, a.goalId, text, {
    about: "agent_crashed",
    agent_id: String(a.id),
    actions: ["restart", "terminate"],
  });
}

const runtimeEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("session"), sessionId: z.string().max(200) }),
  z.object({ type: z.literal("turn.input"), messageId: z.string().max(100) }),
  z.object({ type: z.literal("assistant_text"), text: z.string() }),
  z.object({ type: z.literal("tool_called"), toolUseId: z.string(), name: z.string(), input: z.unknown() }),
  z.object({
    type: z.literal("tool_result"),
    toolUseId: z.string(),
    isError: z.boolean(),
    content: z.string(),
  }),
  z.object({ type: z.literal("tool_denied"), name: z.string(), reason: z.string() }),
  z.object({
    type: z.literal("turn.usage"),
    model: z.string(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
    costUsd: z.number().optional(),
  }),
  z.object({ type: z.literal("turn.end"), isError: z.boolean() }),
  z.object({ type: z.literal("output"), stream: z.enum(["stdout", "stderr"]), line: z.string() }),
  z.object({
    type: z.literal("exit"),
    code: z.number().nullable(),
    signal: z.string().nullable(),
    error: z.string().optional(),
  }),
]);

export const eventsInput = launchRef.extend({ events: z.array(runtimeEvent).max(500) });

const cap = (s: string) => (s.length > OUTPUT_CAP ? `${s.slice(0, OUTPUT_CAP)}…` : s);
/** Events whose texts can carry what the agent printed or passed to a tool (redacted before the cap). */
const TEXT_EVENTS = new Set(["tool_called", "tool_result", "tool_denied", "output", "assistant_text"]);

/**
 * Runtime events of a launch, recorded in the goal's log (bounded in size): `tool_called`,
 * `tool_result`, `tool_denied`, `agent_output` (a `command` agent's stdout/stderr line), `agent_text`;
 * `session` stores the runtime's session id for a resume.
 */
export async function reportEvents(r: RunnerIdentity, agentId: number, input: z.input<typeof eventsInput>) {
  const p = eventsInput.parse(input);
  const turns: TurnUsage[] = [];
  // Each turn's usage is keyed by launch and turn number (batches of one launch arrive in order and are
  // never resent), so it counts once; the turn number continues from the launch's reports so far.
  const keyPrefix = `runner:${p.launch}:`;
  const out = await write(async (u) => {
    const a = await heldAgent(u, r, agentId, p);
    const base = { goalId: a.goalId, agentId: a.id, teamId: a.teamId };
    // Secret values never reach the log (transcripts): redacted before the texts are capped.
    const redact = p.events.some((e) => TEXT_EVENTS.has(e.type))
      ? await secretRedactor(u, { id: a.id, goalId: a.goalId, ownerId: a.goal.ownerId })
      : (t: string) => t;
    const text = (t: string) => cap(redact(t));
    const earlier = await u.db.usage.count({
      where: { agentId: a.id, idempotencyKey: { startsWith: keyPrefix } },
    });
    let recorded = 0;
    for (const e of p.events) {
      const add = async (name: string, data: Record<string, unknown>) => {
        await appendEvent(u, { ...base, name, data });
        recorded++;
      };
      switch (e.type) {
        case "session":
          await u.db.agent.update({ where: { id: a.id }, data: { runtimeSessionId: e.sessionId } });
          break;
        case "turn.input": {
          // The turn's input as the turn starts; the acknowledgement after the turn then records none. A
          // message delivered again (its turn failed, a relaunch) starts a new turn and shows again.
          const taken = await u.sql.run(
            `UPDATE "Message" SET "turnStartedAt" = ? WHERE uid = ? AND "recipientAgentId" = ? AND "consumedAt" IS NULL`,
            new Date(),
            e.messageId,
            a.id,
          );
          if (taken > 0) await add("agent_input", { message_id: e.messageId });
          break;
        }
        case "tool_called":
          await add("tool_called", {
            tool_use_id: e.toolUseId,
            tool: e.name,
            input: text(JSON.stringify(e.input) ?? "null"),
          });
          break;
        case "tool_result":
          await add("tool_result", {
            tool_use_id: e.toolUseId,
            is_error: e.isError,
            content: text(e.content),
          });
          break;
        case "tool_denied":
          await add("tool_denied", { tool: e.name, reason: text(e.reason) });
          break;
        case "output":
          await add("agent_output", { stream: e.stream, line: text(e.line) });
          break;
        case "assistant_text":
          await add("agent_text", { text: text(e.text) });
          break;
        case "turn.usage":
          await add("turn.usage", {
            model: e.model,
            input_tokens: e.inputTokens,
            output_tokens: e.outputTokens,
            cache_read_tokens: e.cacheReadTokens,
            cache_write_tokens: e.cacheWriteTokens,
            ...(e.costUsd !== undefined ? { cost_usd: e.costUsd } : {}),
          });
          turns.push({ ...e, key: `${keyPrefix}${earlier + turns.length + 1}` });
          break;
        default:
          break; // turn.end, exit: the state report carries the exit
      }
    }
    return { recorded };
  }, "runner.events");
  // Spend goes through the usage operation, one unit per turn after the events' (a unit cannot nest):
  // the task the agent holds, its billing code, the budget's alert and pause (docs/budgets.md).
  for (const t of turns) {
    const cents = t.costUsd === undefined ? undefined : t.costUsd * 100;
    try {
      await recordUsage({
        agentId,
        model: t.model,
        inputTokens: t.inputTokens,
        outputTokens: t.outputTokens,
        cacheReadTokens: t.cacheReadTokens,
        cacheWriteTokens: t.cacheWriteTokens,
        costCents: cents === undefined ? undefined : Math.floor(cents),
        costMicros:
          cents === undefined ? undefined : Math.round((cents - Math.floor(cents)) * 1_000_000) % 1_000_000,
        source: "runner",
        idempotencyKey: t.key,
      });
    } catch (e) {
      // An unknown model without a cost, a finished goal: the event is recorded, the spend is not.
      logger.warn({ err: e, agent: agentId, model: t.model }, "runner usage not recorded");
    }
  }
  return out;
}

type TurnUsage = Extract<z.output<typeof runtimeEvent>, { type: "turn.usage" }> & { key: string };

/**
 * The owner or operator restarts an agent: a `crashed`, `exited` or `stopped` agent is queued again with
 * its crash count cleared (a running one is left alone). A `stopped` agent whose process its runner has
 * not ended yet (the lease is still live) goes back to `running` under that lease: the stop is called off
 * and no second process starts beside it.
 */
export async function restartAgent(agentId: number, ownerId?: number) {
  return write(async (u) => {
    const a = await u.db.agent.findUnique({ where: { id: agentId }, include: { goal: true } });
    if (!a?.runnerManaged || (ownerId !== undefined && a.goal.ownerId !== ownerId)) {
      throw notFound(`agent ${agentId}`);
    }
    const now = new Date();
    const stillHeld = a.runState === "stopped" && a.leaseUntil !== null && a.leaseUntil > now;
    const { count } = stillHeld
      ? await u.db.agent.updateMany({
          where: { id: a.id, runState: "stopped", launchSeq: a.launchSeq },
          data: { runState: "running", crashStreak: 0, relaunchAt: null },
        })
      : await u.db.agent.updateMany({
          where: { id: a.id, runState: { in: ["crashed", "exited", "stopped"] } },
          data: { runState: "queued", crashStreak: 0, relaunchAt: null, leaseUntil: null },
        });
    if (count === 1) {
      await appendEvent(u, {
        goalId: a.goalId,
        agentId: a.id,
        name: "agent_restart_requested",
        data: { from: a.runState, ...(stillHeld ? { stop_cancelled: true } : {}) },
      });
      u.notify(LAUNCH_TOPIC);
    }
    return { agent_id: a.id, restarted: count === 1 };
  });
}

/** Run states of a goal's runner-managed agents (the CLI and tests read it). */
export async function goalRunStates(goalId: number) {
  const rows = await read(({ db }) =>
    db.agent.findMany({
      where: { goalId, runnerManaged: true },
      orderBy: { id: "asc" },
      select: {
        id: true,
        name: true,
        runState: true,
        launchSeq: true,
        crashStreak: true,
        runnerInstance: true,
        runError: true,
      },
    }),
  );
  return rows.map((a) => ({
    agent_id: a.id,
    name: a.name,
    run_state: a.runState,
    launches: a.launchSeq,
    crashes_in_a_row: a.crashStreak,
    runner: a.runnerInstance,
    /** Why the last launch failed or crashed (null after a clean exit). */
    last_error: a.runError,
  }));
}
