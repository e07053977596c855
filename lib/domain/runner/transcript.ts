import { z } from "zod";
import { read } from "@/lib/db";
import { type SqlDate, toIso } from "@/lib/db/rows";
import { agentStatus } from "@/lib/domain/agents/agents";
import { senderLabel } from "@/lib/domain/messages/insert-message";
import { notFound } from "@/lib/errors";
import { MAX_DB_INT } from "@/lib/ids";

/**
 * An agent's transcript (issue 11 §4, docs/runner.md "Transcripts"): what its launches did, read from the
 * goal's event log — the inbox messages delivered to it as turns (`agent_input`, with the message), what it
 * said (`agent_text`, a `command` agent's `agent_output`), each tool call and result, denials, each turn's
 * usage, and its run (started, stopped, crashed, restarted). Every text was bounded to 2,000 characters
 * when the runner reported it; a delivered message's content is bounded here the same way. Secret values
 * never reach it: the launch job's environment is never recorded, and a value the agent itself prints is
 * redacted when the runner reports it (`redactSecrets`).
 *
 * Paged by the event's `seq`: no cursor is the newest `limit` entries; `before` the `limit` entries before
 * a cursor (older pages); `after` the entries after one, oldest first (the live stream's catch-up).
 */
export const TRANSCRIPT_EVENTS = [
  "agent_started",
  "agent_completed",
  "agent_crashed",
  "agent_restart_requested",
  "agent_stop_requested",
  "agent_limit_reached",
  "terminate.forced",
  "agent_input",
  "agent_text",
  "agent_output",
  "tool_called",
  "tool_result",
  "tool_denied",
  "turn.usage",
  "run.cost",
  "ask_user_question.redirected",
  "disallowed_alias.denied",
] as const;

const MESSAGE_CAP = 2000;

export const transcriptQuery = z.object({
  after: z.coerce.number().int().min(0).max(MAX_DB_INT).optional(),
  before: z.coerce.number().int().min(1).max(MAX_DB_INT).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export type TranscriptEntry = {
  seq: number;
  ts: string;
  event: string;
  data: Record<string, unknown>;
  /** For `agent_input`: the message delivered as the turn (content bounded). */
  message?: { from: string; from_name: string | null; kind: string; content: string } | null;
};

export type TranscriptAgent = {
  agent_id: number;
  goal_id: number;
  name: string;
  role: string;
  status: string;
  run_state: string | null;
  launches: number;
  crashes_in_a_row: number;
  runner: string | null;
  quarantined: boolean;
};

type EventRow = { seq: number; ts: SqlDate; name: string; dataJson: string };
type MessageRow = {
  uid: string;
  senderKind: string;
  senderAgentId: number | null;
  fromName: string | null;
  kind: string;
  content: string;
};

const NAMES_SQL = TRANSCRIPT_EVENTS.map(() => "?").join(", ");

/** The agent (of the owner's goal `goalId`) as the transcript's header shows it; not_found otherwise. */
export async function transcriptAgent(ownerId: number, goalId: number, agentId: number) {
  const a = await read(({ db }) =>
    db.agent.findUnique({ where: { id: agentId }, include: { goal: { select: { ownerId: true } } } }),
  );
  if (!a || a.goalId !== goalId || a.goal.ownerId !== ownerId) throw notFound(`agent ${agentId}`);
  return {
    agent_id: a.id,
    goal_id: a.goalId,
    name: a.name,
    role: a.role,
    status: agentStatus(a),
    run_state: a.runnerManaged ? a.runState : null,
    launches: a.launchSeq,
    crashes_in_a_row: a.crashStreak,
    runner: a.runnerInstance,
    quarantined: a.quarantinedAt !== null,
  } satisfies TranscriptAgent;
}

/** A page of the agent's transcript entries (the agent must already be checked as the owner's). */
export async function transcriptEntries(
  goalId: number,
  agentId: number,
  q: z.output<typeof transcriptQuery>,
  /** With `after`: read no further than this seq (the goal's head when the caller read it). */
  upTo = 2_147_483_647,
): Promise<{ entries: TranscriptEntry[]; next_cursor: number; older_cursor: number | null }> {
  const forward = q.after !== undefined;
  const rows = await read(({ sql }) =>
    forward
      ? sql.all<EventRow>(
          `SELECT seq, ts, name, "dataJson" FROM "Event"
           WHERE "goalId" = ? AND "agentId" = ? AND seq > ? AND seq <= ? AND name IN (${NAMES_SQL})
           ORDER BY seq LIMIT ?`,
          goalId,
          agentId,
          q.after,
          upTo,
          ...TRANSCRIPT_EVENTS,
          q.limit + 1,
        )
      : sql.all<EventRow>(
          `SELECT seq, ts, name, "dataJson" FROM "Event"
           WHERE "goalId" = ? AND "agentId" = ? AND seq < ? AND name IN (${NAMES_SQL})
           ORDER BY seq DESC LIMIT ?`,
          goalId,
          agentId,
          q.before ?? 2_147_483_647,
          ...TRANSCRIPT_EVENTS,
          q.limit + 1,
        ),
  );
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  if (!forward) page.reverse();
  const uids = page
    .filter((r) => r.name === "agent_input")
    .map((r) => String((JSON.parse(r.dataJson) as { message_id?: unknown }).message_id ?? ""))
    .filter(Boolean);
  const messages = new Map<string, TranscriptEntry["message"]>();
  if (uids.length > 0) {
    const found = await read(({ sql }) =>
      sql.all<MessageRow>(
        `SELECT m.uid, m."senderKind", m."senderAgentId", s.name AS "fromName", m.kind, m.content
         FROM "Message" m LEFT JOIN "Agent" s ON s.id = m."senderAgentId"
         WHERE m."goalId" = ? AND m."recipientAgentId" = ? AND m.uid IN (${uids.map(() => "?").join(", ")})`,
        goalId,
        agentId,
        ...uids,
      ),
    );
    for (const m of found) {
      messages.set(m.uid, {
        from: senderLabel(m.senderKind, m.senderAgentId),
        from_name: m.fromName,
        kind: m.kind,
        content: m.content.length > MESSAGE_CAP ? `${m.content.slice(0, MESSAGE_CAP)}…` : m.content,
      });
    }
  }
  const entries = page.map((r): TranscriptEntry => {
    const data = JSON.parse(r.dataJson) as Record<string, unknown>;
    const e: TranscriptEntry = { seq: Number(r.seq), ts: toIso(r.ts), event: r.name, data };
    if (r.name === "agent_input") e.message = messages.get(String(data.message_id ?? "")) ?? null;
    return e;
  });
  const last = entries.at(-1)?.seq;
  return {
    entries,
    // The cursor to follow for newer entries (the live stream's `after`).
    next_cursor: last ?? q.after ?? 0,
    // The cursor for the page before this one (null: this page starts at the agent's first entry).
    older_cursor: forward ? null : more ? (entries[0]?.seq ?? null) : null,
  };
}

/** GET …/agents/:agentId/transcript: the agent and one page of its transcript. */
export async function agentTranscript(
  ownerId: number,
  goalId: number,
  agentId: number,
  q: z.output<typeof transcriptQuery>,
) {
  const agent = await transcriptAgent(ownerId, goalId, agentId);
  return { agent, ...(await transcriptEntries(goalId, agentId, q)) };
}
