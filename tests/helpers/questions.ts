// Fixtures of the questions tests, shared by the in-process and the over-HTTP files (any Surface).
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { goalWithAgents, type Surface, sc } from "./server";

export type Answer = { selected_labels: string[]; selected_values: string[]; text: string | null };
export type AskResult = { answers: Answer[]; answer_text: string };
export type Inbox = {
  messages: { message_id: string; from: string; kind: string; content: string }[];
  ack: number;
};
export type QView = {
  qid: string;
  status: string;
  holder: string;
  origin: string;
  hops: { from: string; to: string; reason: string }[];
  answer_text: string | null;
  answered_by: string | null;
  decline_reason: string | null;
};

export const DB_Q = {
  question: "Which database should the service use?",
  header: "Database",
  multiSelect: false,
  options: [
    { label: "PostgreSQL", description: "Relational, the team knows it", value: "pg" },
    { label: "SQLite", description: "Embedded, zero ops" },
    { label: "Other store", description: "Name it", requires_text: true },
  ],
};

/** Coordinator C (leader: owner) → lead L → engineer E: three hops from E to the owner. */
export async function chain(s: Surface, email?: string) {
  const g = await goalWithAgents(s, 1, email);
  const [c, l] = g.agents;
  assert.ok(c && l);
  const { agent_id, api_key } = await s.createAgent({ goal: g.goal.goal_id, name: "engineer", leader: l.id });
  const e = { id: String(agent_id), key: api_key, client: await s.client(api_key) };
  return { ...g, c, l, e };
}

/** Start a blocking ask_user with progress notifications (the SDK client resets its timeout on each). */
export function ask(
  client: Client,
  args: Record<string, unknown>,
  opts: { signal?: AbortSignal; progress?: number[] } = {},
) {
  return client.callTool({ name: "ask_user", arguments: args }, undefined, {
    timeout: 5000,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: 600_000,
    signal: opts.signal,
    onprogress: (p) => opts.progress?.push(p.progress),
  });
}

/** The qid of the next [INBOX QUESTION] in an inbox, waiting for it to arrive (acknowledges what it read). */
export async function inboxQid(client: Client): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const r = sc<Inbox>(await client.callTool({ name: "read_inbox", arguments: { wait_seconds: 2 } }));
    if (r.messages.length) await client.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
    const m = r.messages.find((x) => x.kind === "question");
    const qid = m?.content.match(/qid=(q_\w+)/)?.[1];
    if (qid) {
      assert.match(m?.content ?? "", /^\[INBOX QUESTION\]/);
      return qid;
    }
  }
  throw new Error("no [INBOX QUESTION] arrived");
}

/** An owner REST call with a bearer token: status and JSON body. */
export async function rest(s: Surface, method: string, path: string, token: string, body?: unknown) {
  const r = await s.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: r.status,
    json: (await r.json()) as Record<string, unknown> & { error?: { code: string } },
  };
}

/** The question `qid` once it waits for the owner (polls the owner's REST list). */
export async function ownerPending(s: Surface, token: string, qid: string): Promise<QView> {
  for (let i = 0; i < 100; i++) {
    const r = await rest(s, "GET", "/api/questions?status=pending", token);
    const q = (r.json.questions as QView[]).find((x) => x.qid === qid);
    if (q) return q;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`question ${qid} never reached the owner`);
}
