// Questions over HTTP where HTTP matters: the owner's live feed (Server-Sent Events) and owner isolation
// on the REST API (no credential, another owner). The rest of ask_user / answer_question /
// escalate_question runs in process: tests/in-process/questions.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type AskResult,
  ask,
  chain,
  DB_Q,
  inboxQid,
  ownerPending,
  type QView,
  rest,
} from "../helpers/questions";
import { sc, startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let db: typeof import("@/lib/db");
before(async () => {
  server = await startServer({ env: { SWITCHBOARD_PROGRESS_EVERY_S: "0.2" } });
  process.env.DATABASE_URL = server.env.DATABASE_URL;
  db = await import("@/lib/db");
});
after(async () => {
  await db?.disconnect();
  await server?.stop();
});

test("an owner cannot see or answer another owner's question", async () => {
  const { e, l, c, token } = await chain(server);
  const call = ask(e.client, { questions: [DB_Q] });
  const qid = await inboxQid(l.client);
  // Still with an agent: the owner is not the holder yet.
  const early = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: ["SQLite"] }],
  });
  assert.equal(early.json.error?.code, "not_holder");
  const inChain = await rest(server, "GET", "/api/questions?status=in_chain", token);
  assert.deepEqual(
    (inChain.json.questions as QView[]).filter((x) => x.qid === qid).map((x) => x.holder),
    [l.id],
  );
  await l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "up" } });
  await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "up" } });
  await ownerPending(server, token, qid);
  const intruder = await server.ownerToken("intruder@example.com");
  const list = await rest(server, "GET", "/api/questions?status=all", intruder);
  assert.deepEqual(list.json.questions, []);
  const one = await rest(server, "GET", `/api/questions/${qid}`, intruder);
  assert.equal(one.status, 404);
  assert.equal(one.json.error?.code, "unknown_qid");
  const ans = await rest(server, "POST", `/api/questions/${qid}/answer`, intruder, {
    answers: [{ selected_labels: ["SQLite"] }],
  });
  assert.equal(ans.json.error?.code, "unknown_qid");
  const dec = await rest(server, "POST", `/api/questions/${qid}/decline`, intruder, { reason: "mine now" });
  assert.equal(dec.json.error?.code, "unknown_qid");
  const anon = await fetch(new URL("/api/questions", server.url));
  assert.equal(anon.status, 401);
  const mine = await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: ["SQLite"] }],
  });
  assert.equal(mine.status, 200);
  assert.equal(sc<AskResult>(await call).answer_text, "Database: SQLite");
});

/** Read SSE `questions` events from the owner's stream until `until` holds or time runs out. */
async function streamEvents(
  token: string,
  until: (events: { pending: string[] }[]) => boolean,
  ms = 8000,
  connected: () => void = () => {},
) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  const events: { pending: string[] }[] = [];
  try {
    const r = await fetch(new URL("/api/questions/stream", server.url), {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    assert.equal(r.headers.get("content-type"), "text/event-stream");
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let buf = "";
    while (!until(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
        const chunk = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = chunk.match(/^event: questions\ndata: (.*)$/m)?.[1];
        if (data) {
          events.push(JSON.parse(data) as { pending: string[] });
          connected(); // the stream's first event is the current state: it is listening now
        }
      }
    }
  } catch (e) {
    if (!abort.signal.aborted) throw e;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

test("the owner's live feed announces a question that reaches them, and only theirs", async () => {
  const { c, token } = await chain(server, "feed-owner@example.com");
  const other = await server.ownerToken("feed-other@example.com");
  let theirsListening!: () => void;
  let mineListening!: () => void;
  const listening = Promise.all([
    new Promise<void>((r) => {
      theirsListening = r;
    }),
    new Promise<void>((r) => {
      mineListening = r;
    }),
  ]);
  const theirs = streamEvents(other, () => false, 4000, theirsListening);
  const mine = streamEvents(token, (evs) => evs.some((e) => e.pending.length > 0), 8000, mineListening);
  // Ask once both streams are listening (each has sent its first event), not after a guessed delay.
  await listening;
  const call = ask(c.client, {
    questions: [{ question: "Feed?", header: "", multiSelect: false, options: [] }],
  });
  const events = await mine;
  const qid = events.at(-1)?.pending[0];
  assert.ok(qid, "the stream announced the pending question");
  const seenByOther = await theirs;
  assert.ok(
    seenByOther.every((e) => e.pending.length === 0),
    "another owner's feed never shows it",
  );
  await rest(server, "POST", `/api/questions/${qid}/answer`, token, {
    answers: [{ selected_labels: [], text: "ok" }],
  });
  assert.equal(sc<AskResult>(await call).answer_text, "ok");
});
