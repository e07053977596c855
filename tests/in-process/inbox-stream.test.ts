// The owner's live inbox (/api/inbox/stream, the shell's InboxLive): a proposal and a resource request
// reach the owner's stream without a reload, a supply or decline takes the request off it, and each of
// these writes wakes `owner:<id>` on the bus (so the page updates at once, not at the next 3 s re-check);
// another owner's stream and topic never see them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { goalWithAgents, type InProcess, sc, startInProcess } from "../helpers/in-process";

type Stamp = { questions: string[]; requests: number[]; approvals: number[] };

let h: InProcess;
let bus: typeof import("@/lib/bus");
let inbox: typeof import("@/lib/domain/owners/inbox");
let db: typeof import("@/lib/db");

before(async () => {
  h = await startInProcess();
  bus = await import("@/lib/bus");
  inbox = await import("@/lib/domain/owners/inbox");
  db = await import("@/lib/db");
});
const open: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(open.map((s) => s.close()));
  await h?.stop();
});

/** An open SSE connection to the owner's inbox stream: every `inbox` event so far, and a way to wait. */
function openStream(token: string) {
  const abort = new AbortController();
  const events: Stamp[] = [];
  let cursor = 0;
  let wake = () => {};
  const readOnce = async () => {
    const r = await h.fetch("/api/inbox/stream", {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/event-stream");
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += new TextDecoder().decode(value);
        for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
          const data = buf.slice(0, i).match(/^event: inbox\ndata: (.*)$/m)?.[1];
          buf = buf.slice(i + 2);
          if (data) {
            events.push(JSON.parse(data) as Stamp);
            wake();
          }
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  };
  // Like a browser's EventSource: a stream the server ended (a failed check ends it) is opened again after a
  // moment, and its first event is the state then.
  const done = (async () => {
    while (!abort.signal.aborted) {
      await readOnce().catch((e) => {
        if (!abort.signal.aborted) throw e;
      });
      if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 500));
    }
  })();
  const stream = {
    events,
    /** Resolves with the first event after the last one returned (now or later) that satisfies `ok`. */
    async until(ok: (s: Stamp) => boolean): Promise<Stamp> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (Date.now() > deadline) {
          throw new Error(
            `no matching inbox event within 60 s; seen: ${JSON.stringify(events.slice(cursor))}`,
          );
        }
        const i = events.findIndex((s, j) => j >= cursor && ok(s));
        const hit = events[i];
        if (hit) {
          cursor = i + 1;
          return hit;
        }
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 1000).unref(); // to look at the deadline
        });
      }
    },
    async close() {
      abort.abort();
      await done.catch(() => {});
    },
  };
  open.push(stream);
  return stream;
}

/**
 * Every wake-up of `topic` caused by `fn`. Wake-ups go out at commit (PostgreSQL: NOTIFY, delivered
 * through the LISTEN connection in commit order), so a marker notified by a later transaction arriving
 * means every wake-up of `fn`'s writes has arrived too.
 */
async function wakes(topic: string, fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const off = bus.subscribe(topic, () => {
    n++;
  });
  const marker = `test-marker:${Math.random().toString(36).slice(2)}`;
  let markerSeen!: () => void;
  const seen = new Promise<void>((r) => {
    markerSeen = r;
  });
  const offMarker = bus.subscribe(marker, () => markerSeen());
  try {
    await fn();
    await db.write(async (u) => u.notify(marker));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      seen,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("the marker's wake-up never arrived")), 15_000);
      }),
    ]).finally(() => clearTimeout(timer));
  } finally {
    off();
    offMarker();
  }
  return n;
}

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await h.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

test("proposals and resource requests reach the owner's live inbox at once, and only that owner's", async () => {
  const g = await goalWithAgents(h, 1, "live-a@example.com");
  const otherG = await goalWithAgents(h, 0, "live-b@example.com");
  const ownerA = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: g.goal.goal_id } }));
  const ownerB = await db.read((u) => u.db.goal.findUniqueOrThrow({ where: { id: otherG.goal.goal_id } }));
  const topicA = inbox.ownerTopic(ownerA.ownerId);
  const topicB = inbox.ownerTopic(ownerB.ownerId);
  const mine = openStream(g.token);
  const theirs = openStream(otherG.token);
  // The first event is the state when connected: nothing waits.
  assert.deepEqual(await mine.until(() => true), { questions: [], requests: [], approvals: [] });
  await theirs.until(() => true);

  // A task tree proposed: it appears in #approvals' part of the stamp.
  const coordinator = g.agents[0]?.client as Client;
  let proposal!: { proposal_message_id: number };
  const proposalWakes = await wakes(topicA, async () => {
    proposal = sc(
      await coordinator.callTool({
        name: "propose_task_tree",
        arguments: { goal_id: g.goal.goal_id, tree: { title: "Call the API", description: "Needs a key." } },
      }),
    );
  });
  assert.ok(proposalWakes > 0, "a proposal wakes the owner's topic");
  await mine.until((s) => s.approvals.length === 1);
  const approveWakes = await wakes(topicA, () =>
    rest(g.token, "POST", `/api/approvals/${proposal.proposal_message_id}/approve`, {}),
  );
  assert.ok(approveWakes > 0, "a decision wakes the owner's topic");
  await mine.until((s) => s.approvals.length === 0);
  const task = await db.read((u) =>
    u.db.goalTask.findFirstOrThrow({ where: { goalId: g.goal.goal_id }, orderBy: { id: "asc" } }),
  );

  // Two requests: each appears; one supplied, one declined, each leaves.
  const asker = g.agents[1]?.client as Client;
  const ask = (name: string) =>
    asker.callTool({
      name: "request_resource",
      arguments: { name, resource_type: "api_key", reason: "The API needs it", task_id: task.id },
    });
  let first!: { request_id: number };
  const requestWakes = await wakes(topicA, async () => {
    first = sc(await ask("LIVE_KEY_ONE"));
  });
  assert.ok(requestWakes > 0, "a request wakes the owner's topic");
  await mine.until((s) => s.requests.includes(first.request_id));
  const second = sc<{ request_id: number }>(await ask("LIVE_KEY_TWO"));
  await mine.until((s) => s.requests.length === 2);

  const supplyWakes = await wakes(topicA, () =>
    rest(g.token, "POST", `/api/requests/${first.request_id}/supply`, { value: "live-value-1" }),
  );
  assert.ok(supplyWakes > 0, "a supply wakes the owner's topic");
  await mine.until((s) => s.requests.length === 1 && s.requests[0] === second.request_id);
  const declineWakes = await wakes(topicA, () =>
    rest(g.token, "POST", `/api/requests/${second.request_id}/decline`, { reason: "Not this one" }),
  );
  assert.ok(declineWakes > 0, "a decline wakes the owner's topic");
  await mine.until((s) => s.requests.length === 0 && s.approvals.length === 0);

  // The other owner: their topic never woke for A's items, and their stream showed nothing.
  const crossWakes = await wakes(topicB, () => ask("LIVE_KEY_THREE"));
  assert.equal(crossWakes, 0, "another owner's topic is not woken");
  await mine.until((s) => s.requests.length === 1);
  await mine.close();
  await theirs.close();
  assert.ok(theirs.events.length >= 1);
  for (const s of theirs.events) assert.deepEqual(s, { questions: [], requests: [], approvals: [] });
});

// (Without any credential the route falls back to the session cookie, which needs Next's request scope:
// that 401 is checked over HTTP in tests/integration/secrets-cli.test.ts.)
test("the inbox stream is owner-only: an agent key is refused", async () => {
  const g = await goalWithAgents(h, 0, "live-c@example.com");
  const asAgent = await h.fetch("/api/inbox/stream", {
    headers: { authorization: `Bearer ${g.agents[0]?.key}` },
  });
  assert.equal(asAgent.status, 401);
});
