import type { AgentJob, LeaseAction, RunnerJob } from "@/lib/domain/runner/launch-jobs";
import type { RuntimeEvent } from "./runtimes/types";

/** An error answer of the hub: `{error: {code, message}}` with its HTTP status. */
export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/**
 * The runner's only way to the hub (issue 11, docs/runner.md): JSON over HTTP(S) with its runner token.
 * Nothing here touches a database: the runner may run on another machine than the hub.
 */
export class HubClient {
  constructor(
    readonly hub: string,
    private readonly token: string,
    readonly instance: string,
  ) {}

  get mcpUrl(): string {
    return new URL("/mcp", this.hub).toString();
  }

  private async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const res = await fetch(new URL(path, this.hub), {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const data = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
    if (!res.ok) {
      throw new HubError(res.status, data.error?.code ?? "http_error", data.error?.message ?? res.statusText);
    }
    return data as T;
  }

  poll(
    o: { runtimes: string[]; agentSlots: number; verifySlots: number; running: number; waitS: number },
    signal?: AbortSignal,
  ): Promise<{ job: RunnerJob | null }> {
    return this.post(
      "/api/runner/poll",
      {
        instance: this.instance,
        runtimes: o.runtimes,
        agent_slots: o.agentSlots,
        verify_slots: o.verifySlots,
        running: o.running,
        wait_s: o.waitS,
      },
      signal,
    );
  }

  private ref(job: AgentJob) {
    return { instance: this.instance, launch: job.launch };
  }

  key(job: AgentJob): Promise<{ api_key: string }> {
    return this.post(`/api/runner/agents/${job.agent_id}/key`, this.ref(job));
  }

  renew(job: AgentJob): Promise<{ action: LeaseAction }> {
    return this.post(`/api/runner/agents/${job.agent_id}/renew`, this.ref(job));
  }

  state(
    job: AgentJob,
    s: {
      state: "running" | "exited" | "crashed";
      stopped?: boolean;
      runtime?: string;
      exit_code?: number | null;
      signal?: string | null;
      error?: string | null;
      launch_failed?: boolean;
      limit?: "max_turns" | "max_minutes";
      turns?: number;
    },
  ): Promise<{ run_state: string }> {
    return this.post(`/api/runner/agents/${job.agent_id}/state`, { ...this.ref(job), ...s });
  }

  events(job: AgentJob, events: RuntimeEvent[]): Promise<{ recorded: number }> {
    return this.post(`/api/runner/agents/${job.agent_id}/events`, { ...this.ref(job), events });
  }

  verdict(taskId: number, v: { approve: boolean; reason: string }): Promise<{ recorded: boolean }> {
    return this.post(`/api/runner/verify/${taskId}`, { instance: this.instance, ...v });
  }
}
