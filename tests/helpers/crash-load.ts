// The kill -9 crash engine (issue 16 §5), shared by the short CI test (tests/integration/crash-safety.test.ts)
// and the long script (`npm run crash`, bench/crash.mts): the production server under load from agents that
// send, read, claim, ask and answer over real MCP SDK clients; kill -9 at random moments; after each restart,
// the database (opened afresh, read-only, by this process) must hold every acknowledged write, and every
// write unit — acknowledged or not — whole or not at all. Then the load goes on against the restarted server.
//
// What a write unit writes together (lib/domain), and so what is checked after each restart:
// - send_message: the Message row (kind `message`) and its `send_message` event (data.message_id), one
//   `Goal.eventSeq` bump;
// - read_inbox with `ack`: consumedAt on the acknowledged messages and one `agent_input` event each;
// - claim_task: GoalTask claimed by the caller, one `task_claimed` event, one post in the goal's channel;
// - ask_user (opening the question): the Question, the [INBOX QUESTION] message to its holder, one
//   `question_asked` event;
// - answer_question: the Question answered, one `question_answered` event, one `question_answer` message
//   to the asker;
// - every event: the goal's `seq` counter, so a goal's events are exactly 1..Goal.eventSeq.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Database from "better-sqlite3";
import pg from "pg";
import { errorCode, mcpClient, type Provider, sc, startServer, type TestServer } from "./server";

export type CrashOptions = {
  provider: Provider;
  /** Agents under load (the coordinator, which answers their questions, comes on top). */
  agents: number;
  /** kill -9 moments; each is followed by a restart and a check. */
  kills: number;
  seed: number;
  /** The load runs for a random time in [min, max] ms before each kill. */
  loadMs: [number, number];
  /** Progress lines (the script prints them; the test keeps them for a failure message). */
  log?: (line: string) => void;
  /** Extra server environment. */
  env?: Record<string, string>;
};

export type RoundStats = {
  round: number;
  loadMs: number;
  restartMs: number;
  checkMs: number;
  /** Calls that returned (a result or a refusal) during the round, and those cut by the kill. */
  acked: number;
  unknown: number;
  violations: number;
};

export type CrashReport = {
  seed: number;
  provider: Provider;
  rounds: RoundStats[];
  violations: string[];
  /** Why calls were cut (the error each threw, counted): connection errors at the kills. */
  cutBy: Record<string, number>;
  totals: {
    sends: Outcomes;
    reads: Outcomes;
    claims: Outcomes;
    asks: Outcomes;
    answers: Outcomes;
    /** Unacknowledged sends found whole in the database (the rest were wholly absent). */
    unknownSendsPresent: number;
    messages: number;
    events: number;
  };
  ms: number;
};

type Outcomes = { ok: number; refused: number; unknown: number };
const outcomes = (): Outcomes => ({ ok: 0, refused: 0, unknown: 0 });

/** mulberry32: a small seeded generator, so a seed replays the same choices and kill moments. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Agent = { id: number; key: string; client: Client };

type Send = {
  token: string;
  body: string;
  from: number;
  to: number;
  state: "ok" | "refused" | "unknown";
  uid?: string;
};
type Claim = { task: number; agent: number; state: "ok" | "refused" | "unknown"; holder?: number };
type Ask = { agent: number; text: string; state: "ok" | "refused" | "unknown"; answer?: string };
type Answer = { qid: string; text: string; state: "ok" | "refused" | "unknown" };

/** A read-only view of the database, opened afresh for each check (so nothing of a connection's cache helps). */
type Reader = { all<T>(sql: string, ...params: unknown[]): Promise<T[]>; close(): Promise<void> };

async function openReader(provider: Provider, url: string): Promise<Reader> {
  if (provider === "sqlite") {
    const db = new Database(url.replace(/^file:/, ""), { readonly: true, fileMustExist: true });
    return {
      all: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
      close: async () => {
        db.close();
      },
    };
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return {
    all: async <T>(sql: string, ...params: unknown[]) => {
      let i = 0;
      return (
        await c.query(
          sql.replace(/\?/g, () => `$${++i}`),
          params,
        )
      ).rows as T[];
    },
    close: () => c.end(),
  };
}

const isRefusal = (r: unknown) => (r as { isError?: boolean }).isError === true;

export async function runCrashLoad(o: CrashOptions): Promise<CrashReport> {
  const started = Date.now();
  const log = o.log ?? (() => {});
  const random = rng(o.seed);
  const server: TestServer = await startServer({
    provider: o.provider,
    env: {
      // The load is 32 busy agents on one key each; no limit of issue 16 §4 should shape it.
      SWITCHBOARD_CALLS_PER_S: "100000",
      ...o.env,
    },
  });
  const clients: Client[] = [];
  const report: CrashReport = {
    seed: o.seed,
    provider: o.provider,
    rounds: [],
    violations: [],
    cutBy: {},
    totals: {
      sends: outcomes(),
      reads: outcomes(),
      claims: outcomes(),
      asks: outcomes(),
      answers: outcomes(),
      unknownSendsPresent: 0,
      messages: 0,
      events: 0,
    },
    ms: 0,
  };
  try {
    // Setup: a goal, its coordinator, the agents (lib/domain in this process), a pool of approved tasks.
    const token = await server.ownerToken();
    const owner = await mcpClient(server.url, token);
    clients.push(owner);
    const goal = sc<{ goal_id: number; coordinator_agent_id: number }>(
      await owner.callTool({
        name: "create_goal",
        arguments: { title: "Crash load", description: "Agents under kill -9." },
      }),
    );
    const coordKey = await server.agentKey(goal.coordinator_agent_id);
    const coordinator: Agent = {
      id: goal.coordinator_agent_id,
      key: coordKey,
      client: await mcpClient(server.url, coordKey),
    };
    clients.push(coordinator.client);
    const agents: Agent[] = [];
    for (let i = 0; i < o.agents; i++) {
      const { agent_id, api_key } = await server.createAgent({ goal: goal.goal_id, name: `crash-${i}` });
      const client = await mcpClient(server.url, api_key);
      clients.push(client);
      agents.push({ id: agent_id, key: api_key, client });
    }
    const db = await import("@/lib/db");
    const taskCount = 60 * (o.kills + 1);
    // One create a row: a large createMany is a transaction of Prisma's own, which a unit refuses on SQLite.
    await db.write(async (u) => {
      for (let i = 0; i < taskCount; i++)
        await u.db.goalTask.create({
          data: {
            goalId: goal.goal_id,
            title: `Crash task ${i}`,
            description: "A task to claim under kill -9.",
            status: "approved",
          },
        });
    });
    const tasks = (
      await db.read((u) =>
        u.db.goalTask.findMany({
          where: { goalId: goal.goal_id },
          select: { id: true },
          orderBy: { id: "asc" },
        }),
      )
    ).map((t) => t.id);
    // This process lets go of the database: what the checks read, they read through a fresh connection.
    await db.disconnect();

    // What the load did, call by call.
    const sends: Send[] = [];
    const claims: Claim[] = [];
    const asks: Ask[] = [];
    const answers: Answer[] = [];
    /** Messages a recipient was handed (they must exist), and those it acknowledged (they must be consumed). */
    const seenUids = new Set<string>();
    const consumedUids = new Set<string>();
    const knownClaimed = new Set<number>();

    // The loops run while `running`. It goes off just before each kill: a loop parks at its next turn (after
    // its call returned, or failed because the kill cut it) until the next round opens `resumed`. The
    // controller waits for all to park before it checks, so no agent writes while it reads.
    let running = false;
    let stopping = false;
    let resumed = Promise.resolve();
    let parked = 0;
    let roundAcked = 0;
    let roundUnknown = 0;
    const park = async () => {
      parked++;
      await resumed;
      parked--;
    };
    /** A call: its result, or "unknown" when it threw (cut by the kill: not acknowledged). */
    const call = async (c: Client, name: string, args: Record<string, unknown>, timeout = 30_000) => {
      try {
        const r = await c.callTool({ name, arguments: args }, undefined, {
          timeout,
          resetTimeoutOnProgress: true,
        });
        roundAcked++;
        return r;
      } catch (e) {
        roundUnknown++;
        const why =
          `${name}: ${e instanceof Error ? `${e.message} ${(e.cause as Error | undefined)?.message ?? ""}` : String(e)}`.slice(
            0,
            120,
          );
        report.cutBy[why] = (report.cutBy[why] ?? 0) + 1;
        return "unknown" as const;
      }
    };

    const inboxState = new Map<number, { ack?: number; handed: { uid: string; seq: number }[] }>();
    /** read_inbox with the previous ack: what it hands out must exist, what it acknowledged be consumed. */
    const readInbox = async (a: Agent, waitSeconds = 0) => {
      const st = inboxState.get(a.id) ?? { handed: [] };
      inboxState.set(a.id, st);
      const args: Record<string, unknown> = { limit: 50, wait_seconds: waitSeconds };
      if (st.ack !== undefined) args.ack = st.ack;
      const r = await call(a.client, "read_inbox", args);
      if (r === "unknown") {
        report.totals.reads.unknown++;
        return undefined;
      }
      if (isRefusal(r)) {
        report.totals.reads.refused++;
        return undefined;
      }
      report.totals.reads.ok++;
      const ackSent = st.ack;
      if (ackSent !== undefined) {
        for (const m of st.handed) if (m.seq <= ackSent) consumedUids.add(m.uid);
        st.handed = st.handed.filter((m) => m.seq > ackSent);
      }
      const res = sc<{
        messages: { message_id: string; seq: number; kind: string; content: string }[];
        ack: number;
      }>(r);
      for (const m of res.messages) {
        seenUids.add(m.message_id);
        if (!st.handed.some((h) => h.uid === m.message_id)) st.handed.push({ uid: m.message_id, seq: m.seq });
      }
      st.ack = res.ack;
      return res.messages;
    };

    const agentLoop = async (a: Agent, idx: number) => {
      const r = rng(o.seed * 1000 + idx + 1);
      let n = 0;
      for (;;) {
        if (stopping) return;
        if (!running) {
          await park();
          continue;
        }
        const x = r();
        if (x < 0.5) {
          // send_message: a unique token, then a body of random length (up to ~6 KB, some multi-byte text).
          const peer = agents[Math.floor(r() * agents.length)] ?? a;
          const to = peer.id === a.id ? (agents[(idx + 1) % agents.length] ?? a) : peer;
          const token = `m:${o.seed}:${idx}:${n++}`;
          const pad = "abcdefghij-é✓".repeat(Math.floor(r() * 500));
          const body = `${token}|${pad}|end`;
          const s: Send = { token, body, from: a.id, to: to.id, state: "unknown" };
          sends.push(s);
          const res = await call(a.client, "send_message", { to: String(to.id), content: body });
          if (res === "unknown") continue; // cut by the kill: not acknowledged
          if (isRefusal(res)) s.state = "refused";
          else {
            s.state = "ok";
            s.uid = sc<{ message_id: string }>(res).message_id;
          }
        } else if (x < 0.75) {
          await readInbox(a);
        } else if (x < 0.95) {
          // claim_task: an approved task nobody is known to hold (racing claims still happen).
          let task = tasks[Math.floor(r() * tasks.length)] ?? 0;
          for (let tries = 0; tries < 20 && knownClaimed.has(task); tries++)
            task = tasks[Math.floor(r() * tasks.length)] ?? 0;
          const c: Claim = { task, agent: a.id, state: "unknown" };
          claims.push(c);
          const res = await call(a.client, "claim_task", { task_id: task });
          if (res === "unknown") continue; // cut by the kill: not acknowledged
          if (isRefusal(res)) {
            c.state = "refused";
            const code = errorCode(res);
            const details = (
              res as { structuredContent?: { error?: { details?: { assignee_id?: number } } } }
            ).structuredContent?.error?.details;
            if (code === "ErrAlreadyClaimed") c.holder = details?.assignee_id;
            knownClaimed.add(task);
          } else {
            c.state = "ok";
            knownClaimed.add(task);
          }
        } else {
          // ask_user: blocks until the coordinator answers (its loop reads its inbox).
          const text = `q:${o.seed}:${idx}:${n++}`;
          const q: Ask = { agent: a.id, text, state: "unknown" };
          asks.push(q);
          const res = await call(
            a.client,
            "ask_user",
            { questions: [{ question: text, header: "Crash", multiSelect: false, options: [] }] },
            60_000,
          );
          if (res === "unknown") continue; // cut by the kill: not acknowledged
          if (isRefusal(res)) q.state = "refused";
          else {
            q.state = "ok";
            q.answer = sc<{ answer_text: string }>(res).answer_text;
          }
        }
      }
    };

    /** The coordinator: reads its inbox for [INBOX QUESTION]s and answers each. */
    const pendingQids = new Set<string>();
    const coordinatorLoop = async () => {
      for (;;) {
        if (stopping) return;
        if (!running) {
          await park();
          continue;
        }
        const msgs = await readInbox(coordinator, 0.5);
        for (const m of msgs ?? []) {
          const qid = m.content.match(/qid=(q_\w+)/)?.[1];
          if (m.kind === "question" && qid) pendingQids.add(qid);
        }
        // All at once, as a leader with many askers would (one by one, the askers would queue behind it).
        await Promise.all(
          [...pendingQids].map(async (qid) => {
            const text = `a:${qid}`;
            const ans: Answer = { qid, text, state: "unknown" };
            answers.push(ans);
            const res = await call(coordinator.client, "answer_question", {
              qid,
              answers: [{ selected_labels: [], text }],
              reason: "crash test",
            });
            if (res === "unknown") {
              report.totals.answers.unknown++;
              return; // tried again after the restart
            }
            ans.state = isRefusal(res) ? "refused" : "ok";
            report.totals.answers[ans.state]++;
            pendingQids.delete(qid); // answered now, or earlier by a call the kill cut (unknown_qid)
          }),
        );
      }
    };

    const check = async (round: number): Promise<string[]> => {
      const v: string[] = [];
      const reader = await openReader(o.provider, server.env.DATABASE_URL ?? "");
      try {
        // Every goal's events are exactly 1..eventSeq (each append bumps the counter with its row).
        const goals = await reader.all<{ id: number; eventSeq: number }>(`SELECT id, "eventSeq" FROM "Goal"`);
        const evs = await reader.all<{
          goalId: number;
          seq: number;
          name: string;
          agentId: number | null;
          dataJson: string;
        }>(`SELECT "goalId", seq, name, "agentId", "dataJson" FROM "Event" ORDER BY "goalId", seq`);
        report.totals.events = evs.length;
        for (const g of goals) {
          const seqs = evs.filter((e) => e.goalId === g.id).map((e) => Number(e.seq));
          const dense = seqs.every((s, i) => s === i + 1);
          if (seqs.length !== Number(g.eventSeq) || !dense)
            v.push(`goal ${g.id}: eventSeq ${g.eventSeq} but ${seqs.length} events (dense: ${dense})`);
        }
        const ours = evs.filter((e) => e.goalId === goal.goal_id);
        const byName = (name: string, key: string) => {
          const m = new Map<string, typeof ours>();
          for (const e of ours) {
            if (e.name !== name) continue;
            const k = String((JSON.parse(e.dataJson) as Record<string, unknown>)[key]);
            m.set(k, [...(m.get(k) ?? []), e]);
          }
          return m;
        };
        const sendEvents = byName("send_message", "message_id");
        const inputEvents = byName("agent_input", "message_id");
        const claimEvents = byName("task_claimed", "task_id");
        const askedEvents = byName("question_asked", "qid");
        const answeredEvents = byName("question_answered", "qid");

        const msgs = await reader.all<{
          uid: string;
          kind: string;
          content: string;
          senderAgentId: number | null;
          recipientAgentId: number | null;
          channelId: number | null;
          metaJson: string | null;
          deliveredAt: unknown;
          consumedAt: unknown;
        }>(
          `SELECT uid, kind, content, "senderAgentId", "recipientAgentId", "channelId", "metaJson", "deliveredAt", "consumedAt"
           FROM "Message" WHERE "goalId" = ?`,
          goal.goal_id,
        );
        report.totals.messages = msgs.length;
        const byUid = new Map(msgs.map((m) => [m.uid, m]));
        // Agent messages: each with its one send_message event; each such event with its message.
        const agentMsgs = msgs.filter((m) => m.kind === "message" && m.recipientAgentId !== null);
        const byToken = new Map<string, typeof agentMsgs>();
        for (const m of agentMsgs) {
          if ((sendEvents.get(m.uid)?.length ?? 0) !== 1)
            v.push(`message ${m.uid}: ${sendEvents.get(m.uid)?.length ?? 0} send_message events (want 1)`);
          const t = m.content.slice(0, m.content.indexOf("|"));
          byToken.set(t, [...(byToken.get(t) ?? []), m]);
        }
        for (const uid of sendEvents.keys())
          if (!byUid.has(uid)) v.push(`send_message event for message ${uid}, which does not exist`);
        // Consumed messages: delivered first, one agent_input event each; and no agent_input without them.
        for (const m of msgs) {
          if (m.recipientAgentId === null) continue;
          const n = inputEvents.get(m.uid)?.length ?? 0;
          if (m.consumedAt !== null && m.deliveredAt === null)
            v.push(`message ${m.uid}: consumed, never delivered`);
          if ((m.consumedAt !== null ? 1 : 0) !== n)
            v.push(`message ${m.uid}: consumed=${m.consumedAt !== null} with ${n} agent_input events`);
        }
        for (const uid of inputEvents.keys())
          if (!byUid.has(uid)) v.push(`agent_input event for message ${uid}, which does not exist`);

        // Sends: acknowledged → exactly once, whole, as sent; refused → absent; cut → whole or absent.
        let unknownPresent = 0;
        for (const s of sends) {
          const rows = byToken.get(s.token) ?? [];
          const whole = rows.length === 1 && rows[0]?.content === s.body;
          const right = whole && rows[0]?.senderAgentId === s.from && rows[0]?.recipientAgentId === s.to;
          if (s.state === "ok") {
            if (!right || rows[0]?.uid !== s.uid)
              v.push(
                `acknowledged send ${s.token} (${s.uid}): ${rows.length} rows, whole=${whole}, right=${right}`,
              );
          } else if (s.state === "refused") {
            if (rows.length) v.push(`refused send ${s.token}: ${rows.length} rows in the database`);
          } else if (rows.length) {
            unknownPresent++;
            if (!right) v.push(`unacknowledged send ${s.token}: ${rows.length} rows, whole=${whole}`);
          }
        }
        report.totals.unknownSendsPresent = unknownPresent;
        for (const uid of seenUids) if (!byUid.has(uid)) v.push(`message ${uid} was handed out, then lost`);
        for (const uid of consumedUids)
          if (byUid.get(uid)?.consumedAt === null)
            v.push(`message ${uid}: acknowledged by its reader, not consumed`);

        // Claims: each claimed task with one event by its holder and one channel post; none for the others.
        const taskRows = await reader.all<{
          id: number;
          status: string;
          assigneeId: number | null;
          claimedAt: unknown;
        }>(`SELECT id, status, "assigneeId", "claimedAt" FROM "GoalTask" WHERE "goalId" = ?`, goal.goal_id);
        const posts = new Map<number, number>();
        for (const m of msgs) {
          const id =
            m.channelId !== null ? m.content.match(/^Task #(\d+) ".*" claimed by agent #(\d+)\.$/s) : null;
          if (id) posts.set(Number(id[1]), (posts.get(Number(id[1])) ?? 0) + 1);
        }
        const taskById = new Map(taskRows.map((t) => [Number(t.id), t]));
        for (const t of taskRows) {
          const es = claimEvents.get(String(t.id)) ?? [];
          const claimed = t.status === "claimed";
          if (claimed) {
            if (t.assigneeId === null || t.claimedAt === null)
              v.push(`task ${t.id}: claimed without assignee or time`);
            if (es.length !== 1 || es[0]?.agentId !== t.assigneeId)
              v.push(
                `task ${t.id}: claimed by ${t.assigneeId} with ${es.length} task_claimed events (${es.map((e) => e.agentId)})`,
              );
            if (posts.get(Number(t.id)) !== 1)
              v.push(`task ${t.id}: claimed with ${posts.get(Number(t.id)) ?? 0} channel posts`);
          } else if (
            t.status !== "approved" ||
            t.assigneeId !== null ||
            es.length ||
            posts.get(Number(t.id))
          ) {
            v.push(
              `task ${t.id}: ${t.status}, assignee ${t.assigneeId}, ${es.length} claim events, ${posts.get(Number(t.id)) ?? 0} posts`,
            );
          }
        }
        for (const c of claims) {
          const t = taskById.get(c.task);
          if (c.state === "ok" && (t?.status !== "claimed" || t.assigneeId !== c.agent))
            v.push(
              `acknowledged claim of task ${c.task} by ${c.agent}: now ${t?.status} by ${t?.assigneeId}`,
            );
          if (c.state === "refused" && c.holder !== undefined && t?.assigneeId !== c.holder)
            v.push(`claim of task ${c.task} refused as held by ${c.holder}: now held by ${t?.assigneeId}`);
        }

        // Questions (asked by agents): asked with its inbox message and event; answered with its event and
        // the answer in the asker's inbox; pending with neither.
        const qs = await reader.all<{
          id: string;
          askerId: number;
          holderId: number | null;
          status: string;
          questionsJson: string;
          answerText: string | null;
          answeredBy: string | null;
        }>(
          `SELECT id, "askerId", "holderId", status, "questionsJson", "answerText", "answeredBy" FROM "Question" WHERE "goalId" = ? AND origin = 'agent'`,
          goal.goal_id,
        );
        const qMsgs = new Map<string, { question: number; answer: number }>();
        for (const m of msgs) {
          if (m.kind !== "question" && m.kind !== "question_answer") continue;
          const qid = m.metaJson ? String((JSON.parse(m.metaJson) as { qid?: string }).qid) : "";
          const e = qMsgs.get(qid) ?? { question: 0, answer: 0 };
          if (m.kind === "question") e.question++;
          else e.answer++;
          qMsgs.set(qid, e);
        }
        const qById = new Map(qs.map((q) => [q.id, q]));
        const qByText = new Map<string, typeof qs>();
        for (const q of qs) {
          const e = qMsgs.get(q.id) ?? { question: 0, answer: 0 };
          if ((askedEvents.get(q.id)?.length ?? 0) !== 1 || e.question !== 1)
            v.push(
              `question ${q.id}: ${askedEvents.get(q.id)?.length ?? 0} question_asked events, ${e.question} inbox questions`,
            );
          const done = q.status === "answered" ? 1 : 0;
          if ((answeredEvents.get(q.id)?.length ?? 0) !== done || e.answer !== done)
            v.push(
              `question ${q.id} (${q.status}): ${answeredEvents.get(q.id)?.length ?? 0} question_answered events, ${e.answer} answers in the inbox`,
            );
          const text = (JSON.parse(q.questionsJson) as { question: string }[])[0]?.question ?? "";
          qByText.set(text, [...(qByText.get(text) ?? []), q]);
        }
        for (const a of answers) {
          const q = qById.get(a.qid);
          if (
            a.state === "ok" &&
            (q?.status !== "answered" ||
              q.answerText !== `Crash: ${a.text}` ||
              q.answeredBy !== String(coordinator.id))
          )
            v.push(
              `acknowledged answer to ${a.qid}: now ${q?.status} "${q?.answerText}" by ${q?.answeredBy}`,
            );
        }
        for (const a of asks) {
          if (a.state !== "ok") continue;
          const found = (qByText.get(a.text) ?? []).filter((q) => q.askerId === a.agent);
          if (found.length !== 1 || found[0]?.status !== "answered" || found[0]?.answerText !== a.answer)
            v.push(
              `acknowledged ask "${a.text}": ${found.length} questions, ${found[0]?.status} "${found[0]?.answerText}" (told "${a.answer}")`,
            );
        }
      } finally {
        await reader.close();
      }
      if (v.length) log(`round ${round}: ${v.length} violations, first: ${v.slice(0, 5).join(" | ")}`);
      return v.map((x) => `round ${round}: ${x}`);
    };

    const loops: Promise<void>[] = [];
    const waitParked = async (n: number) => {
      const deadline = Date.now() + 90_000;
      while (parked < n) {
        if (Date.now() > deadline)
          throw new Error(`only ${parked} of ${n} load loops stopped after the kill`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    let release: (() => void) | undefined;
    for (let round = 1; round <= o.kills; round++) {
      const [min, max] = o.loadMs;
      const loadMs = Math.round(min + random() * (max - min));
      roundAcked = 0;
      roundUnknown = 0;
      // A new gate for this round's parking; the previous one opens, and the parked loops go on.
      const opened = release;
      resumed = new Promise<void>((r) => {
        release = r;
      });
      running = true;
      if (round === 1) loops.push(...agents.map((a, i) => agentLoop(a, i)), coordinatorLoop());
      else opened?.();
      await new Promise((r) => setTimeout(r, loadMs));
      // kill -9 in the middle of the load: the calls in flight are cut, and the loops park.
      running = false;
      const t0 = Date.now();
      await server.restart();
      const restartMs = Date.now() - t0;
      await waitParked(loops.length);
      const t1 = Date.now();
      const v = await check(round);
      report.violations.push(...v);
      const stats: RoundStats = {
        round,
        loadMs,
        restartMs,
        checkMs: Date.now() - t1,
        acked: roundAcked,
        unknown: roundUnknown,
        violations: v.length,
      };
      report.rounds.push(stats);
      log(
        `round ${round}/${o.kills}: load ${loadMs} ms, ${stats.acked} calls answered, ${stats.unknown} cut by the kill; restart ${restartMs} ms; check ${stats.checkMs} ms: ${v.length ? `${v.length} VIOLATIONS` : "ok"}`,
      );
    }
    stopping = true;
    release?.();
    await Promise.all(loops);
    const tally = (xs: { state: "ok" | "refused" | "unknown" }[]) => ({
      ok: xs.filter((x) => x.state === "ok").length,
      refused: xs.filter((x) => x.state === "refused").length,
      unknown: xs.filter((x) => x.state === "unknown").length,
    });
    report.totals.sends = tally(sends);
    report.totals.claims = tally(claims);
    report.totals.asks = tally(asks);
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await server.stop();
  }
  report.ms = Date.now() - started;
  return report;
}

export function summary(r: CrashReport): string {
  const o = (x: Outcomes) => `${x.ok} ok, ${x.refused} refused, ${x.unknown} cut`;
  const t = r.totals;
  return [
    `crash: ${r.provider}, seed ${r.seed}, ${r.rounds.length} kills in ${(r.ms / 1000).toFixed(1)} s`,
    `  send_message:    ${o(t.sends)} (${t.unknownSendsPresent} of the cut ones committed whole, the rest absent)`,
    `  read_inbox:      ${o(t.reads)}`,
    `  claim_task:      ${o(t.claims)}`,
    `  ask_user:        ${o(t.asks)}`,
    `  answer_question: ${o(t.answers)}`,
    `  database: ${t.messages} messages, ${t.events} events`,
    `  restart ms: ${r.rounds.map((x) => x.restartMs).join(" ")}`,
    `  calls cut by: ${Object.entries(r.cutBy)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n}× ${k}`)
      .join("; ")}`,
    r.violations.length
      ? `  ${r.violations.length} VIOLATIONS:\n    ${r.violations.slice(0, 30).join("\n    ")}`
      : "  no violations: every acknowledged write present, every write unit whole or absent",
  ].join("\n");
}
