// Notifications in a real browser (issue 17): the owner adds a webhook (its signing secret shown once) and
// a Slack channel on the settings page, an agent's question reaches both (the webhook fails once and is
// retried), the delivery log shows each attempt, Replay sends the message again with the same webhook-id,
// and a link from the message answers the question once (a second visit shows the card in the app); the
// owner mutes the goal on the same page.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { DB_Q } from "../tests/helpers/questions";
import { type Receiver, startReceiver } from "../tests/helpers/receiver";
import { mcpClient, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
let token: string;
const clients: Client[] = [];
let hook: Receiver;
let slack: Receiver;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({
    env: {
      SWITCHBOARD_NOTIFY_ALLOW_PRIVATE: "1",
      SWITCHBOARD_NOTIFY_TICK_MS: "200",
      SWITCHBOARD_NOTIFY_BATCH_S: "0",
      SWITCHBOARD_NOTIFY_RETRY_S: "1,1",
    },
  });
  token = await server.ownerToken(HARNESS_OWNER.email);
  hook = await startReceiver({ failFirst: 1 });
  slack = await startReceiver();
});

test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await hook?.close();
  await slack?.close();
  await server?.stop();
});

test("configure a webhook and Slack, see the deliveries in the log, replay one, answer from a link", async ({
  page,
}) => {
  await signIn(page, server.url);
  await page.getByRole("link", { name: "Notifications" }).click();
  await expect(page).toHaveURL(/\/settings\/notifications$/);
  await expect(page.getByText("No channel yet.")).toBeVisible();

  const form = page.getByTestId("new-channel-form");
  await form.getByLabel("Name").fill("ops hook");
  await form.getByLabel("Endpoint URL").fill(`${hook.url}/hook`);
  await form.getByRole("button", { name: "Add channel" }).click();
  const secret = (await page.getByTestId("signing-secret").locator("code").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  hook.secret = secret;
  await expect(page.locator('[data-testid="channel-row"][data-channel-name="ops hook"]')).toBeVisible();

  await form.getByLabel("Channel kind").selectOption("slack");
  await form.getByLabel("Name").fill("team slack");
  await form.getByLabel("Slack incoming webhook URL").fill(`${slack.url}/services/T0/B0/X`);
  await form.getByLabel(/Slack signing secret/).fill("slack-signing-secret-123");
  await form.getByRole("button", { name: "Add channel" }).click();
  const slackRow = page.locator('[data-testid="channel-row"][data-channel-name="team slack"]');
  await expect(slackRow).toContainText("/api/notifications/slack/");
  // Secrets are never shown again.
  await expect(page.locator("body")).not.toContainText("slack-signing-secret-123");
  await expect(page.locator("body")).not.toContainText(secret);

  // An agent asks the owner a question.
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = (await owner.callTool({
    name: "create_goal",
    arguments: { title: "Ship the service", description: "Pick a database and ship." },
  })) as unknown as { structuredContent: { coordinator_agent_id: number } };
  const coordinator = await mcpClient(
    server.url,
    await server.agentKey(goal.structuredContent.coordinator_agent_id),
  );
  clients.push(coordinator);
  const asking = coordinator.callTool({ name: "ask_user", arguments: { questions: [DB_Q] } }, undefined, {
    timeout: 120_000,
  });
  asking.catch(() => {});

  // The log shows both deliveries; the webhook's first attempt failed with HTTP 500, then it went through.
  const rows = page.getByTestId("delivery-row");
  await expect(rows.filter({ hasText: "team slack" })).toHaveAttribute("data-status", "delivered", {
    timeout: 20_000,
  });
  const hookRow = rows.filter({ hasText: "ops hook" }).first();
  await expect(hookRow).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });
  await expect(hookRow.getByTestId("delivery-attempts")).toContainText("failed · HTTP 500");
  await expect(hookRow.getByTestId("delivery-attempts")).toContainText("ok · HTTP 200");
  expect(hook.accepted()).toHaveLength(1);
  expect(hook.accepted()[0]?.verified).toBe(true);
  const blocks = (slack.accepted()[0]?.json.blocks ?? []) as { type: string }[];
  expect(blocks[0]?.type).toBe("header");

  // Replay: the same message again, logged as a replay.
  await hookRow.getByRole("button", { name: "Replay" }).click();
  await expect(rows.filter({ hasText: "replay of" })).toHaveAttribute("data-status", "delivered", {
    timeout: 20_000,
  });
  expect(hook.accepted()).toHaveLength(2);
  expect(hook.accepted()[1]?.headers["webhook-id"]).toBe(hook.accepted()[0]?.headers["webhook-id"]);

  // A link from the message: confirm, answered once; the asker gets the answer.
  const data = hook.accepted()[0]?.json.data as {
    notifications: {
      question: { questions: { options: { label: string; action_url: string | null }[] }[] };
    }[];
  };
  const link = data.notifications[0]?.question.questions[0]?.options[0]?.action_url ?? "";
  const path = new URL(link).pathname;
  await page.goto(`${server.url}${path}`);
  await page.getByRole("button", { name: "Answer “PostgreSQL”" }).click();
  await expect(page.getByTestId("action-result")).toHaveAttribute("data-outcome", "done");
  const answered = (await asking) as unknown as {
    structuredContent: { answers: { selected_labels: string[] }[] };
  };
  expect(answered.structuredContent.answers[0]?.selected_labels).toEqual(["PostgreSQL"]);
  // Used: the link now shows the card in the app.
  await page.goto(`${server.url}${path}`);
  await expect(page).toHaveURL(/\/questions\?qid=q_/);

  // Per goal: mute this goal.
  await page.goto(`${server.url}/settings/notifications`);
  const goalRow = page.getByTestId("goal-settings").filter({ hasText: "Ship the service" });
  await goalRow.getByLabel("Mute").check();
  await goalRow.getByRole("button", { name: "Save" }).click();
  await expect(goalRow).toContainText("Saved.");
  const settings = await (
    await fetch(`${server.url}/api/notification-settings`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(settings.goals).toEqual([expect.objectContaining({ muted: true, batch_seconds: null })]);
});
