// Issue 13 in a real browser: a stuck goal's banner and "Write off" (→ completed); the quarantine card's
// Terminate (→ the agent terminating) with the reputation history on the goal page; Cancel goal.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { goalWithAgents, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

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

async function call(c: Client, name: string, args: Record<string, unknown>) {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
}

async function rest(token: string, method: string, url: string, body?: unknown) {
  const r = await fetch(`${server.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown>;
}

/** A goal of the harness owner with a worker; the root task is auto-verified, its children peer-verified by the coordinator. */
async function goalWithChecks(titles: string[]) {
  const g = await goalWithAgents(server, 1, HARNESS_OWNER.email);
  for (const a of g.agents) clients.push(a.client);
  const [coordinator, worker] = g.agents;
  if (!coordinator || !worker) throw new Error("agents missing");
  const p = await call(coordinator.client, "propose_task_tree", {
    goal_id: g.goal.goal_id,
    tree: {
      title: "Root task",
      description: "The root of the test tree.",
      children: titles.map((title) => ({
        title,
        description: `Description of ${title}.`,
        billing_code: "qa",
        verifier_config: { kind: "peer", agent_id: Number(coordinator.id) },
      })),
    },
  });
  await rest(g.token, "POST", `/api/approvals/${p.proposal_message_id}/approve`, {});
  const tasks = (await call(coordinator.client, "list_tasks", {})).tasks as {
    task_id: number;
    title: string;
  }[];
  const ids = Object.fromEntries(tasks.map((t) => [t.title, t.task_id])) as Record<string, number>;
  const reject = async (title: string) => {
    const id = ids[title];
    await call(worker.client, "claim_task", { task_id: id });
    await call(worker.client, "complete_task", { task_id: id, summary: "Done, I think." });
    await call(coordinator.client, "verify_task", { task_id: id, verdict: "reject", reason: "Not done." });
  };
  return { ...g, coordinator, worker, ids, reject };
}

test("a stuck goal: the banner names the failed task; Write off completes the goal", async ({ page }) => {
  const g = await goalWithChecks(["Check A"]);
  await g.reject("Check A");
  // The coordinator does the root (auto-verified): only the failed check is open → stuck.
  await call(g.coordinator.client, "claim_task", { task_id: g.ids["Root task"] });
  await call(g.coordinator.client, "complete_task", { task_id: g.ids["Root task"], summary: "Root done." });
  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${g.goal.goal_id}`);
  await expect(page.getByTestId("goal-header")).toContainText("stuck");
  const banner = page.getByTestId("goal-stuck-banner");
  await expect(banner).toContainText("This goal is stuck.");
  const failed = banner.getByTestId(`failed-task-${g.ids["Check A"]}`);
  await expect(failed).toContainText("Check A");
  await failed.getByRole("button", { name: "Write off" }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId("goal-header")).toContainText("completed");
});

test("the quarantine card's Terminate ends the agent; the goal page shows its reputation history", async ({
  page,
}) => {
  const g = await goalWithChecks(["Check A", "Check B"]);
  await g.reject("Check A");
  await g.reject("Check B");
  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${g.goal.goal_id}`);
  const row = page.getByTestId(`agent-${g.worker.id}`);
  await expect(row.getByTestId("quarantined")).toBeVisible();
  const history = row.getByTestId("reputation-history");
  await history.getByText("history").click();
  await expect(history.getByTestId("reputation-entry")).toHaveCount(2);
  await expect(history.getByTestId("reputation-entry").first()).toContainText(
    `-1.00 task #${g.ids["Check B"]} · qa → 0.00`,
  );
  await page.goto(`${server.url}/questions`);
  const card = page
    .getByTestId("pending-questions")
    .locator("article", { hasText: `#${g.worker.id}) is quarantined` });
  await expect(card.getByText("quarantined agent")).toBeVisible();
  await card.getByRole("radio", { name: /Terminate/ }).check();
  await card.getByRole("button", { name: "Answer" }).click();
  await expect(card).toHaveCount(0);
  await page.goto(`${server.url}/goals/${g.goal.goal_id}`);
  await expect(page.getByTestId(`agent-${g.worker.id}`)).toContainText("terminating");
});

test("Cancel goal: the reason, the cancelled banner, tasks cancelled", async ({ page }) => {
  const g = await goalWithChecks(["Check A"]);
  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${g.goal.goal_id}`);
  await page.getByTestId("cancel-goal").click();
  await page.getByTestId("cancel-goal-reason").fill("Priorities changed");
  await page.getByTestId("cancel-goal-confirm").click();
  await expect(page.getByTestId("goal-cancelled-banner")).toBeVisible();
  await expect(page.getByTestId("goal-header")).toContainText("cancelled");
  await expect(page.getByTestId("cancel-goal")).toBeHidden();
  const snap = await rest(g.token, "GET", `/api/goals/${g.goal.goal_id}`);
  expect((snap.goal as { status: string }).status).toBe("cancelled");
  // The agents of a cancelled goal are ended: their keys no longer act (issue 16, agent_retired).
  await expect(call(g.worker.client, "read_inbox", {})).rejects.toThrow(/agent_retired/);
});
