import fs from "node:fs";
import path from "node:path";
import type { AgentJob, VerifyJob } from "@/lib/domain/runner/launch-jobs";
import { logger } from "@/lib/log";
import { runVerification, taskWorkspace } from "./command-verifier";
import { HubClient, HubError } from "./hub-client";
import { feedInbox } from "./inbox-feeder";
import { ChildRecord } from "./orphans";
import type { AgentSession, Runtime, RuntimeEvent } from "./runtimes/types";
import { writeSecretFiles } from "./secret-files";

export type RunnerOptions = {
  hub: string;
  token: string;
  /** This runner's name on the hub (unique per token): `<hostname>-<pid>` by default. */
  instance: string;
  /** Agents run at once; more launches stay queued on the hub. */
  maxAgents: number;
  /** Command verifications run at once. */
  verifyConcurrency: number;
  /** Agent workspaces are `<workDir>/goal-<id>/agent-<id>`. */
  workDir: string;
  /** The operator's base directory for verification commands (SWITCHBOARD_WORKSPACE); default: the task's workspace. */
  verifyWorkspace?: string;
  runtimes: Runtime[];
  /** Longest long-poll, seconds. */
  pollWaitS?: number;
  /** A template's `max_minutes` minute in ms (default 60000; tests shorten it). */
  minuteMs?: number;
};

const EVENT_FLUSH_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A runner (issue 11, docs/runner.md): long-polls the hub for jobs it has room for, starts each agent with
 * its template's runtime in its own workspace, renews the agent's lease (the answer says whether to keep,
 * stop or kill it), forwards its events, and reports how it ended. Command verifications come over the
 * same protocol. Talks to the hub over HTTP only.
 */
export class Runner {
  readonly client: HubClient;
  private readonly agents = new Map<number, { job: AgentJob; session?: AgentSession }>();
  private verifying = 0;
  private readonly stopping = new AbortController();
  private wake: () => void = () => {};
  private loop: Promise<void> | undefined;
  private readonly tasks = new Set<Promise<void>>();
  private children: ChildRecord | undefined;

  constructor(private readonly o: RunnerOptions) {
    this.client = new HubClient(o.hub, o.token, o.instance);
  }

  /** Agents this runner runs now (their ids). */
  running(): number[] {
    return [...this.agents.keys()];
  }

  start(): this {
    fs.mkdirSync(this.o.workDir, { recursive: true });
    // Before any job: end what dead runners left behind here, and make sure ours die with us.
    this.children = new ChildRecord(this.o.workDir);
    this.children.start();
    this.loop = this.pollLoop();
    logger.info(
      { runner: this.o.instance, hub: this.o.hub, max_agents: this.o.maxAgents, work_dir: this.o.workDir },
      "runner started",
    );
    return this;
  }

  /** Stop taking jobs, end every agent cleanly (they go back to the hub's queue), wait for the reports. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await Promise.all([...this.agents.values()].map((a) => a.session?.stop()));
    await this.loop;
    await Promise.allSettled([...this.tasks]);
    this.children?.close();
  }

  private track(p: Promise<void>) {
    this.tasks.add(p);
    p.finally(() => {
      this.tasks.delete(p);
      this.wake();
    });
  }

  private async pollLoop(): Promise<void> {
    const signal = this.stopping.signal;
    let failures = 0;
    while (!signal.aborted) {
      const agentSlots = Math.max(0, this.o.maxAgents - this.agents.size);
      const verifySlots = Math.max(0, this.o.verifyConcurrency - this.verifying);
      if (agentSlots === 0 && verifySlots === 0) {
        await new Promise<void>((r) => {
          this.wake = r;
        });
        continue;
      }
      try {
        const { job } = await this.client.poll(
          {
            runtimes: this.o.runtimes.map((r) => r.name),
            agentSlots,
            verifySlots,
            running: this.agents.size,
            waitS: this.o.pollWaitS ?? 25,
          },
          signal,
        );
        failures = 0;
        if (!job) continue;
        if (job.kind === "verify") this.track(this.verify(job));
        else {
          this.agents.set(job.agent_id, { job });
          this.track(this.runAgent(job));
        }
      } catch (e) {
        if (signal.aborted) break;
        failures++;
        logger.warn({ err: e, runner: this.o.instance }, "poll failed");
        await sleep(Math.min(5000, 250 * 2 ** failures));
      }
    }
  }

  private async verify(job: VerifyJob): Promise<void> {
    this.verifying++;
    try {
      const workspace = taskWorkspace(job, this.o.workDir, this.o.verifyWorkspace);
      const verdict = await runVerification(
        job,
        workspace,
        this.stopping.signal,
        path.resolve(this.o.workDir),
      );
      if (this.stopping.signal.aborted) return; // interrupted: the job's lease expires, another runner takes it
      await this.client.verdict(job.task_id, verdict);
    } catch (e) {
      logger.error({ err: e, task: job.task_id }, "verification failed");
    } finally {
      this.verifying--;
    }
  }

  private async runAgent(job: AgentJob): Promise<void> {
    const log = { runner: this.o.instance, agent: job.agent_id, launch: job.launch };
    let files: ReturnType<typeof writeSecretFiles> | undefined;
    try {
      files = writeSecretFiles(job); // file secrets → 0600 files, $NAME = path (issue 14)
      await this.runAgentInner(files.job, log);
    } catch (e) {
      logger.error({ ...log, err: e }, "agent run failed");
    } finally {
      files?.remove();
      this.agents.delete(job.agent_id);
      this.children?.remove(job.agent_id);
    }
  }

  private async runAgentInner(job: AgentJob, log: Record<string, unknown>): Promise<void> {
    const runtime = this.o.runtimes.find((r) => r.name === job.runtime);
    const workspace = path.resolve(this.o.workDir, `goal-${job.goal_id}`, `agent-${job.agent_id}`);
    let session: AgentSession;
    let apiKey: string;
    try {
      if (!runtime) throw new Error(`runtime ${job.runtime} is not available on this runner`);
      fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
      const { api_key } = await this.client.key(job);
      apiKey = api_key;
      session = await runtime.start({
        agentId: job.agent_id,
        goalId: job.goal_id,
        name: job.name,
        role: job.role,
        mcpUrl: this.client.mcpUrl,
        apiKey: api_key,
        systemPrompt: job.system_prompt,
        model: job.model ?? undefined,
        permissionMode: job.permission_mode ?? undefined,
        allowedTools: job.allowed_tools,
        ...(job.max_turns ? { maxTurns: job.max_turns } : {}),
        onProcess: (p) => this.children?.add(job.agent_id, p),
        workspace,
        env: job.env,
        resumeSessionId: job.resume_session_id ?? undefined,
        command: job.command ?? undefined,
      });
    } catch (e) {
      if (e instanceof HubError && e.code === "lease_lost") return;
      const error = e instanceof Error ? e.message : String(e);
      logger.warn({ ...log, error }, "agent did not start");
      await this.client.state(job, { state: "crashed", error }).catch(() => {});
      return;
    }
    const entry = this.agents.get(job.agent_id);
    if (entry) entry.session = session;
    // Started while the runner was stopping: end it at once (it goes back to the hub's queue).
    if (this.stopping.signal.aborted) void session.stop();
    await this.client.state(job, { state: "running", runtime: job.runtime }).catch((e) => {
      if (e instanceof HubError && e.code === "lease_lost") session.kill();
    });
    logger.info(log, "agent started");

    // The lease: renewed every third of its length; the answer may end the agent.
    let endedByHub = false;
    const renewEvery = Math.max(100, (job.lease_s * 1000) / 3);
    const renewal = setInterval(async () => {
      try {
        const { action } = await this.client.renew(job);
        if (action === "continue" || endedByHub) return;
        endedByHub = true;
        logger.info({ ...log, action }, "hub ends agent");
        if (action === "kill") session.kill();
        else void session.stop();
      } catch (e) {
        logger.warn({ ...log, err: e }, "lease renewal failed");
      }
    }, renewEvery);

    // The template's max_minutes: wall clock from the start of this launch; the agent is stopped cleanly.
    let limitHit: "max_minutes" | undefined;
    const deadline = job.max_minutes
      ? setTimeout(
          () => {
            if (endedByHub || this.stopping.signal.aborted) return;
            limitHit = "max_minutes";
            logger.info({ ...log, max_minutes: job.max_minutes }, "agent reached its max_minutes");
            void session.stop();
          },
          job.max_minutes * (this.o.minuteMs ?? 60_000),
        )
      : undefined;

    // A runner-fed session (claude-code): its inbox is read with its own key and delivered turn by turn,
    // each batch acknowledged once delivered; feeding stops when the session ends.
    const fed = new AbortController();
    const feeding = session.fedByRunner
      ? feedInbox({ mcpUrl: this.client.mcpUrl, apiKey, session, log }, fed.signal).catch((e) =>
          logger.error({ ...log, err: e }, "inbox feeding failed"),
        )
      : Promise.resolve();

    // Events: batched to the hub; the last one is `exit`.
    let batch: RuntimeEvent[] = [];
    let flushing: Promise<void> = Promise.resolve();
    const flush = () => {
      const events = batch;
      batch = [];
      if (events.length === 0) return flushing;
      flushing = flushing.then(() =>
        this.client.events(job, events).then(
          () => {},
          (e) => {
            if (e instanceof HubError && e.code === "lease_lost") session.kill();
            else logger.warn({ ...log, err: e }, "events not delivered");
          },
        ),
      );
      return flushing;
    };
    const flusher = setInterval(flush, EVENT_FLUSH_MS);
    let exit: Extract<RuntimeEvent, { type: "exit" }> = { type: "exit", code: null, signal: null };
    for await (const e of session.events) {
      if (e.type === "exit") {
        exit = e;
        break;
      }
      batch.push(e);
      if (batch.length >= 100) void flush();
    }
    fed.abort();
    await feeding;
    clearInterval(renewal);
    clearInterval(flusher);
    clearTimeout(deadline);
    await flush();
    const stopped = endedByHub || this.stopping.signal.aborted;
    // A limit counts only when nothing else ended the launch (the hub's stop, the runner's shutdown win).
    const limit = stopped ? undefined : (limitHit ?? exit.limit);
    const clean = exit.code === 0 && !exit.error;
    await this.client
      .state(job, {
        state: stopped || clean || limit ? "exited" : "crashed",
        stopped,
        ...(limit ? { limit, ...(exit.turns !== undefined ? { turns: exit.turns } : {}) } : {}),
        exit_code: exit.code,
        signal: exit.signal,
        error: exit.error ?? null,
        ...(exit.launchFailed && !stopped ? { launch_failed: true } : {}),
      })
      .catch((e) => logger.warn({ ...log, err: e }, "exit not reported"));
    if (exit.launchFailed) logger.warn({ ...log, error: exit.error }, "agent launch failed");
    logger.info({ ...log, code: exit.code, signal: exit.signal, stopped }, "agent ended");
  }
}
