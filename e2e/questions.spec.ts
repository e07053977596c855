// Questions to humans in a real browser: a three-hop escalation lands live in the owner's inbox (count in
// the title, a browser notification), the owner clicks an answer and the engineer's still-open ask_user
// call returns it; every input shape; decline; the goal page's panel; the owner's message to an agent.
import { setMaxListeners } from "node:events";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { goalWithAgents, mcpClient, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
const clients: Client[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({
    env: {
      SWITCHBOARD_PROGRESS_EVERY_S: "0.5",
      SWITCHBOARD_MAX_OPEN_QUESTIONS: "40",
      SWITCHBOARD_OPEN_WAITS_PER_KEY: "40",
    },
  });
});

test.afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await server?.stop();
});

/** Coordinator C → lead L → engineer E. */
async function chain() {
  const g = await goalWithAgents(server, 1, HARNESS_OWNER.email);
  const [c, l] = g.agents;
  if (!c || !l) throw new Error("no agents");
  const out = await server.cli(
    "agent",
    "create",
    "--goal",
    String(g.goal.goal_id),
    "--name",
    "engineer",
    "--leader",
    l.id,
  );
  const { agent_id, api_key } = JSON.parse(out) as { agent_id: number; api_key: string };
  const e = { id: String(agent_id), client: await mcpClient(server.url, api_key) };
  clients.push(g.owner, c.client, l.client, e.client);
  return { ...g, c, l, e };
}

function ask(client: Client, args: Record<string, unknown>) {
  return client.callTool({ name: "ask_user", arguments: args }, undefined, {
    timeout: 5000,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: 600_000,
    onprogress: () => {},
  });
}

async function nextQid(client: Client): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const r = (await client.callTool({ name: "read_inbox", arguments: { wait_seconds: 2 } }))
      .structuredContent as {
      messages: { kind: string; content: string }[];
      ack: number;
    };
    if (r.messages.length) await client.callTool({ name: "read_inbox", arguments: { ack: r.ack } });
    const qid = r.messages.find((m) => m.kind === "question")?.content.match(/qid=(q_\w+)/)?.[1];
    if (qid) return qid;
  }
  throw new Error("no question arrived");
}

const result = (r: unknown) =>
  (r as { structuredContent: { answers: unknown[]; answer_text: string } }).structuredContent;

test("a three-hop escalation shows up live in the inbox and the owner's click answers the open ask_user", async ({
  page,
  context,
}) => {
  await server.ownerToken(HARNESS_OWNER.email);
  await context.grantPermissions(["notifications"]);
  await page.addInitScript(() => {
    const w = window as unknown as { __notes: string[]; Notification: unknown };
    w.__notes = [];
    const Real = window.Notification;
    class Spy extends Real {
      constructor(title: string, opts?: NotificationOptions) {
        super(title, opts);
        w.__notes.push(title);
      }
    }
    Object.defineProperty(Spy, "permission", { get: () => Real.permission });
    w.Notification = Spy;
  });
  await signIn(page, server.url);
  await page.goto(`${server.url}/questions`);
  await expect(page.getByTestId("questions-live")).toHaveText("live");
  const { e, l, c } = await chain();
  const call = ask(e.client, {
    questions: [
      {
        question: "Which database should the service use?",
        header: "Database",
        multiSelect: false,
        options: [
          { label: "PostgreSQL", description: "Relational, the team knows it", value: "pg" },
          { label: "SQLite", description: "Embedded, zero ops" },
          { label: "DynamoDB", description: "Managed key-value" },
        ],
      },
    ],
    context: "The service stores orders.",
  });
  const qid = await nextQid(l.client);
  await l.client.callTool({ name: "escalate_question", arguments: { qid, reason: "Architecture call" } });
  await c.client.callTool({ name: "escalate_question", arguments: { qid, reason: "Owner decides storage" } });
  const escalatedAt = Date.now();
  const card = page.getByTestId(`question-${qid}`);
  await expect(card).toBeVisible({ timeout: 5000 });
  console.log(`question visible ${Date.now() - escalatedAt} ms after the last escalation`);
  await expect(page.getByTestId("unread-count")).toHaveText("1");
  await expect(page).toHaveTitle(/^\(1\) /);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes.length))
    .toBe(1);
  await expect(card.getByText("Database", { exact: true }).first()).toBeVisible();
  await expect(card.getByText("Relational, the team knows it")).toBeVisible();
  await expect(card.getByText("The service stores orders.")).toBeVisible();
  await expect(card.getByTestId("question-chain")).toContainText("Asked by engineer");
  await expect(card.getByTestId("question-chain")).toContainText("Owner decides storage");
  await expect(card.getByRole("button", { name: "Answer" })).toBeDisabled();
  await card.getByRole("radio", { name: /PostgreSQL/ }).check();
  await page.screenshot({ path: path.join(os.tmpdir(), "switchboard-questions.png"), fullPage: true });
  await card.getByRole("button", { name: "Answer" }).click();
  const answered = result(await call);
  expect(answered.answers).toEqual([
    { selected_labels: ["PostgreSQL"], selected_values: ["pg"], text: null },
  ]);
  expect(answered.answer_text).toBe("Database: PostgreSQL");
  await expect(page.getByTestId("pending-questions").getByTestId(`question-${qid}`)).toHaveCount(0);
  const history = page.getByTestId("question-history").getByTestId(`question-${qid}`);
  await expect(history.getByTestId("answer-text")).toHaveText("Database: PostgreSQL");
  await expect(history).toContainText("Answered by you");
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
});

test("every input shape on the goal page: multi-select, requires_text, Other, free text; and decline", async ({
  page,
}) => {
  await signIn(page, server.url);
  const { c, goal, e } = await chain();
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  await expect(page.getByTestId("live-status")).toHaveText("live");
  const call = ask(c.client, {
    questions: [
      {
        question: "Which platforms?",
        header: "Platforms",
        multiSelect: true,
        options: [
          { label: "Web", description: "Browser app" },
          { label: "iOS", description: "iPhone" },
          { label: "Android", description: "Phones" },
        ],
      },
      {
        question: "Launch date?",
        header: "Launch",
        multiSelect: false,
        options: [
          { label: "This week", description: "Fast" },
          { label: "Custom", description: "Pick a date", requires_text: true },
        ],
      },
      {
        question: "Team name?",
        header: "Team",
        multiSelect: false,
        options: [
          { label: "Blue", description: "b" },
          { label: "Red", description: "r" },
        ],
      },
      { question: "Anything else?", header: "", multiSelect: false, options: [] },
    ],
  });
  const panel = page.getByTestId("goal-questions");
  const card = panel.locator("article").first();
  await expect(card).toBeVisible({ timeout: 10_000 });
  const answer = card.getByRole("button", { name: "Answer" });
  await card.getByRole("checkbox", { name: /Web/ }).check();
  await card.getByRole("checkbox", { name: /Android/ }).check();
  await card.getByRole("radio", { name: /Custom/ }).check();
  // The form's blocker is the domain's own answer check (checkAnswers), not a copy of it.
  await expect(card.getByText('Question 2: option "Custom" requires a text')).toBeVisible();
  await expect(answer).toBeDisabled();
  await card.getByRole("textbox", { name: "Answer to Launch" }).fill("June 1");
  await card.getByTestId("subquestion-2").getByRole("radio", { name: "Other…" }).check();
  await card.getByRole("textbox", { name: "Answer to Team" }).fill("Green");
  await expect(answer).toBeDisabled();
  await card.getByRole("textbox", { name: "Answer to Anything else?" }).fill("No");
  await expect(answer).toBeEnabled();
  await answer.click();
  const r = result(await call);
  expect(r.answer_text).toBe("Platforms: Web, Android\nLaunch: Custom: June 1\nTeam: Green\nNo");
  await expect(panel.locator("article")).toHaveCount(0);

  // Decline with a reason: the open call fails with user_declined.
  const declined = ask(c.client, {
    questions: [{ question: "Double the budget?", header: "Budget", multiSelect: false, options: [] }],
  });
  const card2 = panel.locator("article").first();
  await expect(card2).toBeVisible({ timeout: 10_000 });
  await card2.getByRole("button", { name: "Decline…" }).click();
  await card2.getByLabel("Reason for declining").fill("Not this quarter");
  await card2.getByRole("button", { name: "Confirm decline" }).click();
  const d = (await declined) as unknown as {
    isError?: boolean;
    structuredContent: { error: { code: string; details: { reason: string } } };
  };
  expect(d.isError).toBe(true);
  expect(d.structuredContent.error.code).toBe("user_declined");
  expect(d.structuredContent.error.details.reason).toBe("Not this quarter");

  // The owner writes to an agent from the goal page; it arrives from __user__.
  await page.getByLabel("Recipient").selectOption(e.id);
  await page.getByLabel("Message").fill("Prefer PostgreSQL everywhere.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText(`Sent to #${e.id}.`)).toBeVisible();
  const inbox = (await e.client.callTool({ name: "read_inbox", arguments: {} })).structuredContent as {
    messages: { from: string; content: string }[];
  };
  expect(inbox.messages.at(-1)).toMatchObject({ from: "__user__", content: "Prefer PostgreSQL everywhere." });
});

test("sixty waiting questions: counts agree with the badge, pages of 50, filters by goal and kind", async ({
  page,
}) => {
  const crowd = { email: "crowd@example.com", password: HARNESS_OWNER.password };
  const goals = [await goalWithAgents(server, 0, crowd.email), await goalWithAgents(server, 0, crowd.email)];
  // Each coordinator (its leader is the owner) asks 30 questions and stays blocked on them.
  const abort = new AbortController();
  setMaxListeners(100, abort.signal);
  for (const g of goals) {
    const c = g.agents[0];
    if (!c) throw new Error("no coordinator");
    clients.push(g.owner, c.client);
    for (let i = 0; i < 30; i++) {
      void c.client
        .callTool(
          {
            name: "ask_user",
            arguments: {
              questions: [
                {
                  question: `Goal ${g.goal.goal_id}: decision ${i}?`,
                  header: "Q",
                  multiSelect: false,
                  options: [],
                },
              ],
            },
          },
          undefined,
          { signal: abort.signal, timeout: 600_000 },
        )
        .catch(() => undefined);
    }
  }
  const token = await server.ownerToken(crowd.email);
  await expect
    .poll(
      async () => {
        const r = await server.fetch("/api/questions?limit=1", {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await r.json()) as { total: number }).total;
      },
      { timeout: 60_000 },
    )
    .toBe(60);
  await signIn(page, server.url, crowd);
  await page.goto(`${server.url}/questions`);
  await expect(page.getByTestId("questions-count")).toHaveText("60 waiting");
  await expect(page.getByTestId("nav-question-count")).toHaveText("60");
  await expect(page.getByTestId("pending-questions").locator("article")).toHaveCount(50);
  const pager = page.getByTestId("questions-pager");
  await expect(pager).toContainText("1–50 of 60");
  await pager.getByRole("link", { name: "Older" }).click();
  await expect(page.getByTestId("pending-questions").locator("article")).toHaveCount(10);
  await expect(page.getByTestId("questions-pager")).toContainText("51–60 of 60");

  const filters = page.getByTestId("question-filters");
  await page.goto(`${server.url}/questions?goal=${goals[0]?.goal.goal_id}`);
  await expect(page.getByTestId("questions-count")).toHaveText("30 of 60 waiting");
  await expect(page.getByTestId("pending-questions").locator("article")).toHaveCount(30);
  await expect(page.getByTestId("questions-pager")).toHaveCount(0);
  await filters.getByRole("link", { name: "Reviews (0)" }).click();
  await expect(page.getByText("Nothing matches these filters.")).toBeVisible();
  await page.getByTestId("question-filters").getByRole("link", { name: "From agents (60)" }).click();
  await expect(page.getByTestId("questions-count")).toHaveText("30 of 60 waiting");
  abort.abort();
});
