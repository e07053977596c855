// The owner's flows in a real browser: setup, sign-in, goals with a live feed, tokens, sign-out.
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, type Page, test } from "@playwright/test";
import { mcpClient, startServer, type TestServer } from "../tests/helpers/server";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct-horse-battery" };
const SCREENSHOT = path.join(os.tmpdir(), "switchboard-goal-page.png");

let server: TestServer;
const clients: Client[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
});

async function signIn(page: Page, password = OWNER.password) {
  await page.goto(`${server.url}/signin`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function registerAgent(goalId: string, name: string) {
  const out = await server.cli("agent", "create", "--goal", goalId, "--name", name, "--role", "engineer");
  const agent = JSON.parse(out) as { agent_id: number; api_key: string };
  const client = await mcpClient(server.url, agent.api_key);
  clients.push(client);
  return { id: String(agent.agent_id), client };
}

test("the first visit sets up the owner and signs in", async ({ page }) => {
  await page.goto(server.url);
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Name").fill(OWNER.name);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create owner account" }).click();
  await expect(page).toHaveURL(/\/goals$/);
  await expect(page.getByTestId("owner-email")).toHaveText(OWNER.email);
});

test("setup is closed once an owner exists and goals need a session", async ({ page }) => {
  await page.goto(`${server.url}/setup`);
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto(`${server.url}/goals`);
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, "not-the-password");
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
});

test("a goal page shows agent messages live, without reload", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/goals$/);

  await page.getByLabel("Title").fill("ab");
  await page.getByRole("button", { name: "Create goal" }).click();
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Description")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Title").fill("Ship the landing page");
  await page.getByLabel("Description").fill("Design, build and ship the product landing page.");
  await page.getByLabel("Budget (cents)").fill("5000");
  await page.getByRole("button", { name: "Create goal" }).click();
  await expect(page).toHaveURL(/\/goals\/\d+$/);
  const goalId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

  const header = page.getByTestId("goal-header");
  await expect(header.getByRole("heading", { name: "Ship the landing page" })).toBeVisible();
  await expect(header).toContainText("#goal-ship-the-landing-page");
  const coordinator = page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: "coordinator", exact: true }) });
  await expect(coordinator).toContainText("owner");
  await expect(page.getByTestId("live-status")).toHaveText("live");

  await coordinator.getByRole("button", { name: "New API key" }).click();
  const notice = page.getByTestId("agent-key-notice");
  await expect(notice).toContainText("sb_agent_");
  await expect(notice).toContainText(`claude mcp add --transport http switchboard ${server.url}/mcp`);
  await expect(coordinator.getByTestId("active-keys")).toHaveText("1");

  const alice = await registerAgent(goalId, "alice");
  const bob = await registerAgent(goalId, "bob");
  const sent = await alice.client.callTool({
    name: "send_message",
    arguments: { to: bob.id, content: "Hello bob, the hero section is ready for review." },
  });
  expect(sent.isError).toBeFalsy();

  const feed = page.getByTestId("message-feed");
  await expect(feed).toContainText("Hello bob, the hero section is ready for review.", { timeout: 10_000 });
  await expect(feed.getByRole("listitem").last()).toContainText(/alice\s*→\s*bob/);
  await expect(page.getByTestId("event-timeline")).toContainText("agent_registered");
  await expect(
    page.getByRole("row").filter({ has: page.getByRole("link", { name: "bob", exact: true }) }),
  ).toContainText("coordinator #");

  await page.screenshot({ path: SCREENSHOT, fullPage: true });
});

test("another owner's goal is not found", async ({ page }) => {
  await server.cli("owner", "create", "--email", "other@example.com", "--password", "other-password-123");
  const other = JSON.parse(
    await server.cli(
      "goal",
      "create",
      "--email",
      "other@example.com",
      "--title",
      "Private",
      "--description",
      "Not for Ada's eyes.",
    ),
  ) as { goal_id: number };
  await signIn(page);
  await expect(page).toHaveURL(/\/goals$/);
  await expect(page.getByText("Private")).toHaveCount(0);
  const res = await page.goto(`${server.url}/goals/${other.goal_id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Goal not found" })).toBeVisible();
});

test("tokens are shown once on creation and can be revoked", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/goals$/);
  await page.getByRole("link", { name: "Tokens" }).click();
  await expect(page).toHaveURL(/\/tokens$/);

  await page.getByLabel("Token name").fill("e2e laptop");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toContainText("sb_pat_");

  const row = page.getByRole("row", { name: /e2e laptop/ });
  await expect(row).toContainText("active");
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: "Revoke" })).toHaveCount(0);
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/goals$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto(`${server.url}/goals`);
  await expect(page).toHaveURL(/\/signin$/);
});
