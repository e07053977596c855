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
  // In the signed-in frame like every owner page: the navigation stays (it was missing once).
  await expect(page.getByRole("link", { name: "Goals", exact: true })).toBeVisible();
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

test("billing codes show as their hierarchy on the goal page and on /costs (and in its CSV)", async ({
  page,
}) => {
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const created = (
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Billing hierarchy", description: "A goal whose tasks carry billing codes." },
    })
  ).structuredContent as { goal_id: number; coordinator_agent_id: number };
  const coordinator = await mcpClient(server.url, await server.agentKey(created.coordinator_agent_id));
  clients.push(coordinator);
  const task = (title: string, billing_code: string) => ({
    title,
    description: `The ${title} work, described at length.`,
    billing_code,
  });
  const proposed = await coordinator.callTool({
    name: "propose_task_tree",
    arguments: {
      goal_id: created.goal_id,
      tree: {
        ...task("Engineering", "eng"),
        children: [task("Backend API", "eng/backend/api"), task("Web app", "eng/web")],
      },
    },
  });
  const proposal = (proposed.structuredContent as { proposal_message_id: number }).proposal_message_id;
  const approved = await fetch(`${server.url}/api/approvals/${proposal}/approve`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(approved.status).toBe(200);
  type Node = { id: number; title: string; children?: Node[] };
  const snap = (await (
    await fetch(`${server.url}/api/goals/${created.goal_id}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as { tasks_tree: Node[] };
  const flat = (ns: Node[]): Node[] => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
  const idOf = (title: string) => flat(snap.tasks_tree).find((t) => t.title === title)?.id;
  const { api_key } = await server.createAgent({ goal: created.goal_id, name: "coder" });
  const agent = await mcpClient(server.url, api_key);
  clients.push(agent);
  // The web work ran on a subscription: recorded at list price, shown apart from what was billed.
  for (const [title, cents, billing_type] of [
    ["Backend API", 40, "api"],
    ["Web app", 25, "subscription"],
  ] as const) {
    const r = await agent.callTool({
      name: "report_usage",
      arguments: {
        model: "claude-sonnet-4",
        input_tokens: 100,
        output_tokens: 10,
        cost_cents: cents,
        task_id: idOf(title),
        billing_type,
        idempotency_key: `bill-${title}`,
      },
    });
    expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  }

  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${created.goal_id}`);
  const tree = page.getByTestId("costs-by-billing_code");
  const row = (code: string) => tree.locator(`[data-key="${code}"]`);
  await expect(row("eng")).toContainText("$0.65");
  await expect(row("eng")).toHaveAttribute("data-depth", "0");
  await expect(row("eng/backend")).toContainText("$0.40");
  await expect(row("eng/backend/api")).toHaveAttribute("data-depth", "2");
  await expect(row("eng/web")).toContainText("$0.25");
  await expect(page.getByTestId("costs-split")).toContainText(
    "$0.65 at list price · API key (billed) $0.40 · subscription (what the work was worth) $0.25",
  );
  // Tasks roll up their tree the same way: Engineering holds its two children's spend.
  const byTask = page.getByTestId("costs-by-task");
  await expect(byTask.locator(`[data-key="${idOf("Engineering")}"]`)).toContainText("$0.65");
  await expect(byTask.locator(`[data-key="${idOf("Backend API")}"]`)).toHaveAttribute("data-depth", "1");

  await page.goto(`${server.url}/costs?group_by=billing_code`);
  const all = page.getByTestId("owner-billing-codes");
  await expect(all.locator('[data-key="eng"]')).toContainText("$0.65");
  await expect(all.locator('[data-key="eng"]')).toContainText("$0.40"); // of it, billed on an API key
  await expect(all.locator('[data-key="eng/backend"]')).toContainText("backend");
  const csv = await page.request.get(
    await page
      .getByTestId("costs-csv")
      .getAttribute("href")
      .then((h) => `${server.url}${h}`),
  );
  const text = await csv.text();
  expect(text).toContain("code,parent,depth,cents,own_cents");
  expect(text).toContain("eng/backend,eng,1,40,0,");
});
