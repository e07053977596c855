import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { logger } from "@/lib/log";
import type { AgentSession } from "./runtimes/types";

/** One message as `read_inbox` hands it out (lib/domain/messages/read-inbox.ts; only what is rendered). */
export type InboxMessage = {
  message_id: string;
  seq: number;
  from: string;
  from_name: string | null;
  kind: string;
  content: string;
  created_at: string;
};

type InboxPage = { messages: InboxMessage[]; ack: number; more: boolean };

/** The long-poll of one `read_inbox` call, seconds (the hub caps it at SWITCHBOARD_MAX_WAIT_S). */
const WAIT_S = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `f` with a signal of its own that aborts when `signal` does, unlinked once `f` settles. The MCP SDK
 * adds an abort listener to a request's signal and never removes it: passing the session's signal to every
 * `read_inbox` call would leave one listener per call on it for the session's lifetime (a slow leak, and
 * Node's MaxListenersExceededWarning after 11 calls, seen with 50 agents on one runner).
 */
async function linked<T>(signal: AbortSignal, f: (s: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const abort = () => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  try {
    return await f(own.signal);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

/** How a delivered message reads as a user turn: who sent it, what kind it is, then its content verbatim. */
export function renderMessage(m: InboxMessage): string {
  const from =
    m.from === "__user__"
      ? "the owner (__user__)"
      : m.from === "system"
        ? "the hub (system)"
        : m.from_name
          ? `${m.from_name} (agent ${m.from})`
          : `agent ${m.from}`;
  return `[Switchboard message ${m.message_id} · from ${from} · kind: ${m.kind} · ${m.created_at}]\n\n${m.content}`;
}

/**
 * Feeds a runner-fed session (issue 11, docs/runner.md "Inbox feeding"): reads the agent's inbox over the
 * hub's MCP endpoint with the agent's own key (`read_inbox`, long-polling), delivers each message as a user
 * turn, and acknowledges a batch only once every message of it was delivered (the `ack` rides on the next
 * `read_inbox` call). A session that dies mid-batch leaves the rest pending: the hub hands it out again to
 * the next launch. Resolves when `signal` aborts (the session ended), a delivery is refused, or the terminate
 * sentinel was delivered.
 */
export async function feedInbox(
  o: { mcpUrl: string; apiKey: string; session: AgentSession; log: Record<string, unknown> },
  signal: AbortSignal,
): Promise<void> {
  let client: Client | undefined;
  let ack: number | undefined;
  let failures = 0;
  const connect = async () => {
    const c = new Client({ name: "switchboard-runner", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(o.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${o.apiKey}` } },
      }),
      { signal },
    );
    return c;
  };
  try {
    while (!signal.aborted) {
      let page: InboxPage;
      try {
        client ??= await connect();
        const c = client;
        const res = await linked(signal, (callSignal) =>
          c.callTool(
            {
              name: "read_inbox",
              arguments: { wait_seconds: WAIT_S, ...(ack !== undefined ? { ack } : {}) },
            },
            undefined,
            { signal: callSignal, timeout: (WAIT_S + 30) * 1000, resetTimeoutOnProgress: true },
          ),
        );
        if (res.isError) throw new Error(`read_inbox failed: ${JSON.stringify(res.content)}`);
        page = res.structuredContent as InboxPage;
        failures = 0;
        ack = undefined; // acknowledged by this call
      } catch (e) {
        if (signal.aborted) return;
        failures++;
        logger.warn({ ...o.log, err: e }, "inbox read failed");
        await client?.close().catch(() => {});
        client = undefined;
        await sleep(Math.min(5000, 250 * 2 ** failures));
        continue;
      }
      for (const m of page.messages) {
        if (signal.aborted) return;
        try {
          // Acknowledged only once its turn ended well: a turn that failed (no model credential) or a
          // session that ended first leaves it pending for the next launch.
          const { done } = await o.session.deliver(renderMessage(m), m.message_id);
          await done;
        } catch (e) {
          logger.info({ ...o.log, err: e, message: m.message_id }, "inbox delivery not completed");
          return;
        }
        // Reading the terminate sentinel ended the agent: its key is retired (agent_retired), nothing follows.
        if (m.kind === "terminate") return;
      }
      if (page.messages.length > 0) ack = page.ack;
    }
  } finally {
    await client?.close().catch(() => {});
  }
}
