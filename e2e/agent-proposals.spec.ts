// Issue 13 in a real browser: an agent proposal in #approvals (scope diff, MCP server URL, prompt collapsed)
// approved by the owner; then an agent quarantined by two rejected verdicts, the owner's card in /questions,
// and the goal page's "Lift quarantine" button.
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

/** A goal (owned by the harness owner) whose coordinator's tree is approved; tasks by title. */
async function goalWithTasks(
  children: Record<string, unknown>[] | ((coordinatorId: number) => Record<string, unknown>[]),
) {
  const g = await goalWithAgents(server, 1, HARNESS_OWNER.email);
  for (const a of g.agents) clients.push(a.client);
  const [coordinator] = g.agents;
  if (!coordinator) throw new Error("no coordinator");
  const p = await call(coordinator.client, "propose_task_tree", {
    goal_id: g.goal.goal_id,
    tree: {
      title: "Root task",
      description: "The root of the test tree.",
      children: typeof children === "function" ? children(Number(coordinator.id)) : children,
    },
  });
  await rest(g.token, "POST", `/api/approvals/${p.proposal_message_id}/approve`, {});
  const tasks = (await call(coordinator.client, "list_tasks", {})).tasks as {
    task_id: number;
    title: string;
  }[];
  return {
    ...g,
    tasks: Object.fromEntries(tasks.map((t) => [t.title, t.task_id])) as Record<string, number>,
  };
}

test("the owner reads an agent proposal in #approvals and approves it; the proposer learns the new agent's name", async ({
  page,
}) => {
  const g = await goalWithTasks([{ title: "Index the docs", description: "Build the docs search index." }]);
  const coordinator = g.agents[0];
  if (!coordinator) throw new Error("no coordinator");
  await call(coordinator.client, "propose_agent", {
    goal_id: g.goal.goal_id,
    parent_task_id: g.tasks["Index the docs"],
    name: "doc-indexer",
    model: "claude-sonnet-4-5",
    system_prompt: "You build the docs search index and report when it is done.",
    tool_scope: ["read_inbox", "send_message", "claim_task"],
    mcp_servers: [{ name: "search", url: "https://search.example.com/mcp", transport: "http" }],
    autonomy_tier: "assisted",
    reason: "Indexing needs a narrow, dedicated agent.",
  });
  await signIn(page, server.url);
  await page.goto(`${server.url}/approvals`);
  const card = page.locator('[data-testid="proposal"][data-kind="agent"]');
  await expect(card).toContainText("agent doc-indexer proposed by coordinator");
  await expect(card.getByTestId("agent-name")).toHaveText("doc-indexer");
  await expect(card.getByTestId("agent-scope")).toContainText("+ claim_task");
  await expect(card.getByTestId("agent-mcp-servers")).toContainText("https://search.example.com/mcp");
  await expect(card.getByText("You build the docs search index")).toBeHidden();
  await card.getByText(/System prompt/).click();
  await expect(card.getByText("You build the docs search index")).toBeVisible();
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Nothing awaits your decision.")).toBeVisible();
  const inbox = await call(coordinator.client, "read_inbox", {});
  expect(JSON.stringify(inbox)).toContain("doc-indexer");
});

test("quarantine → the owner's card → Lift quarantine on the goal page", async ({ page }) => {
  const check = (title: string, coordinatorId: number) => ({
    title,
    description: `Description of ${title}.`,
    billing_code: "qa",
    verifier_config: { kind: "peer", agent_id: coordinatorId },
  });
  const g = await goalWithTasks((c) => [check("Check A", c), check("Check B", c)]);
  const [coordinator, worker] = g.agents;
  if (!coordinator || !worker) throw new Error("agents missing");
  // Two rejected verdicts: the first alone quarantines nobody, the second does.
  for (const title of ["Check A", "Check B"]) {
    const id = g.tasks[title];
    await call(worker.client, "claim_task", { task_id: id });
    await call(worker.client, "complete_task", { task_id: id, summary: "Done, I think." });
    await call(coordinator.client, "verify_task", { task_id: id, verdict: "reject", reason: "Not done." });
  }
  await signIn(page, server.url);
  // The owner's card.
  await page.goto(`${server.url}/questions`);
  await expect(page.getByText(/quarantined agent/).first()).toBeVisible();
  // The goal page: the badge and the button.
  await page.goto(`${server.url}/goals/${g.goal.goal_id}`);
  const row = page.getByTestId(`agent-${worker.id}`);
  await expect(row.getByTestId("quarantined")).toBeVisible();
  await expect(row.getByTestId("reputation")).toHaveText("0.00(2)");
  await expect(row.getByTestId("reputation")).toHaveAttribute("title", "qa: 0.00 (2 evidence)");
  await row.getByRole("button", { name: "Lift quarantine" }).click();
  await expect(row.getByTestId("quarantined")).toBeHidden();
  await expect(row.getByRole("button", { name: "Lift quarantine" })).toBeHidden();
  const rep = await rest(g.token, "GET", `/api/agents/${worker.id}/reputation`);
  expect(rep.quarantined).toBe(false);
  expect(rep.evidence_count).toBe(2);
});
