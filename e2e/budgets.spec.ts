// Budgets in a real browser (issue 12): spend crosses 80 % while the goal page is open and the alert banner
// appears; spend reaches 100 %, the goal pauses and the banner offers Resume; the owner resumes with a new
// budget and work is accepted again.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { mcpClient, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
let token: string;
const clients: Client[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer();
  token = await server.ownerToken(HARNESS_OWNER.email);
});

test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
});

test("spend crosses 80 % and 100 % with the goal page open; the owner resumes with a new budget", async ({
  page,
}) => {
  await signIn(page, server.url);
  await page.getByLabel("Title").fill("Spend carefully");
  await page.getByLabel("Description").fill("A goal with a one-dollar budget.");
  await page.getByLabel("Budget (cents)").fill("100");
  await page.getByRole("button", { name: "Create goal" }).click();
  await expect(page).toHaveURL(/\/goals\/\d+$/);
  const goalId = Number(new URL(page.url()).pathname.split("/").at(-1));
  await expect(page.getByTestId("costs-panel")).toBeVisible();
  await expect(page.getByTestId("budget-banner")).toHaveCount(0);
  await expect(page.getByTestId("live-status")).toHaveText("live");

  const { api_key } = await server.createAgent({ goal: goalId, name: "spender" });
  const agent = await mcpClient(server.url, api_key);
  clients.push(agent);
  const spend = async (cents: number, k: string) => {
    const r = await agent.callTool({
      name: "report_usage",
      arguments: {
        model: "claude-sonnet-4",
        input_tokens: 1000,
        output_tokens: 100,
        cost_cents: cents,
        idempotency_key: k,
      },
    });
    expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  };

  await spend(85, "turn-1");
  const banner = page.getByTestId("budget-banner");
  await expect(banner).toContainText("Budget alert");
  await expect(page.getByTestId("costs-by-agent")).toContainText("spender");

  await spend(20, "turn-2");
  await expect(banner).toContainText("Budget exhausted: the goal is paused.");
  const refused = await agent.callTool({ name: "claim_task", arguments: { task_id: 1 } });
  expect((refused.structuredContent as { error: { code: string } }).error.code).toBe("ErrGoalBudgetExceeded");

  // Resume without raising the budget is refused clearly; with a new budget it resumes.
  await banner.getByTestId("resume-goal").click();
  await banner.getByLabel("New budget ($)").fill("1.00");
  await banner.getByTestId("resume-submit").click();
  await expect(banner.getByRole("alert")).toContainText("spent already");
  await banner.getByLabel("New budget ($)").fill("5");
  await banner.getByTestId("resume-submit").click();
  await expect(page.getByTestId("budget-banner")).toHaveCount(0);
  await expect(page.getByTestId("goal-header")).toContainText("active");
  await expect(page.getByTestId("goal-header")).toContainText("of $5.00");
  const snap = (await (
    await fetch(`${server.url}/api/goals/${goalId}`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { goal: { status: string; budget_dollars_cents: number } };
  expect(snap.goal).toMatchObject({ status: "active", budget_dollars_cents: 500 });
});

test("the /costs page shows the owner's spend by goal and by model, and exports CSV", async ({ page }) => {
  await signIn(page, server.url);
  await page.getByRole("link", { name: "Costs", exact: true }).click();
  await expect(page).toHaveURL(/\/costs$/);
  const table = page.getByTestId("owner-costs");
  await expect(table).toContainText("Spend carefully");
  await expect(table).toContainText("$1.05");
  await page.getByLabel("By").selectOption("model");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(table).toContainText("claude-sonnet-4");
  const csv = await page.request.get(
    await page
      .getByTestId("costs-csv")
      .getAttribute("href")
      .then((h) => `${server.url}${h}`),
  );
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await csv.text()).toContain("claude-sonnet-4,claude-sonnet-4,105,105,0,");
});
