// Secrets in a real browser (issue 14): an agent's request_resource shows in #requests with the nav badge
// and on the goal page; the owner supplies the value for the agent (it never shows again), declines another
// request with a reason the agent receives, and revokes the secret on the Secrets page.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { mcpClient, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
let token: string;
const clients: Client[] = [];
const VALUE = `e2e-canary-${Math.random().toString(36).slice(2)}`;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer();
  token = await server.ownerToken(HARNESS_OWNER.email);
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

async function rest(method: string, url: string, body?: unknown) {
  const r = await fetch(`${server.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.json() as Promise<Record<string, unknown>>;
}

test("request → supply in the browser → decline with a reason → revoke on the Secrets page", async ({
  page,
}) => {
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = (await call(owner, "create_goal", {
    title: "Integrate payments",
    description: "Charge cards through the provider's API.",
  })) as { goal_id: number; coordinator_agent_id: number };
  const coordinator = await mcpClient(
    server.url,
    await server.cli("agent", "key", String(goal.coordinator_agent_id)),
  );
  clients.push(coordinator);
  const p = await call(coordinator, "propose_task_tree", {
    goal_id: goal.goal_id,
    tree: { title: "Call the payments API", description: "Create a test charge with the API." },
  });
  await rest("POST", `/api/approvals/${p.proposal_message_id}/approve`, {});
  const snap = (await rest("GET", `/api/goals/${goal.goal_id}`)) as { tasks_tree: { id: number }[] };
  const taskId = snap.tasks_tree[0]?.id as number;
  const created = JSON.parse(
    await server.cli("agent", "create", "--goal", String(goal.goal_id), "--name", "payer"),
  ) as { agent_id: number; api_key: string };
  const payer = await mcpClient(server.url, created.api_key);
  clients.push(payer);
  await call(payer, "request_resource", {
    name: "PAYMENTS_API_KEY",
    resource_type: "api_key",
    reason: "Needed to create the test charge",
    task_id: taskId,
  });

  // 1. The badge and the goal page's card show the open request.
  await signIn(page, server.url);
  await expect(page.getByTestId("nav-request-count")).toHaveText("1");
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  await expect(page.getByTestId("goal-requests")).toContainText("PAYMENTS_API_KEY");

  // 2. #requests: who, which task, why; supply for this agent.
  await page.getByRole("link", { name: /Requests/ }).click();
  // The goal page has the same card: wait for #requests itself, or the clicks land on the page being left.
  await expect(page.getByRole("heading", { name: "#requests" })).toBeVisible();
  const card = page.getByTestId("resource-request").filter({ hasText: "PAYMENTS_API_KEY" });
  await expect(card).toContainText("Needed to create the test charge");
  await expect(card).toContainText("payer");
  await expect(card).toContainText(`task #${taskId}`);
  await card.getByLabel("Value for PAYMENTS_API_KEY").fill(VALUE);
  await card.getByLabel("Scope").selectOption("agent");
  await card.getByRole("button", { name: "Supply" }).click();
  await expect(card).toContainText("Supplied for this agent");
  await expect(page.getByTestId("nav-request-count")).toHaveCount(0);
  expect(await page.content()).not.toContain(VALUE);
  const listed = (await call(payer, "list_resources", {})) as { resources: unknown[] };
  expect(listed.resources).toEqual([{ name: "PAYMENTS_API_KEY", scope: "agent", available: true }]);

  // 3. A second request, declined with a reason the agent receives.
  await call(payer, "request_resource", {
    name: "PROD_DATABASE_URL",
    resource_type: "url",
    reason: "To look at real charges",
    task_id: taskId,
  });
  await page.reload();
  const second = page.getByTestId("resource-request").filter({ hasText: "PROD_DATABASE_URL" });
  await second.getByLabel("Reason for declining").fill("Use the sandbox only");
  await second.getByRole("button", { name: "Decline" }).click();
  await expect(second).toContainText("Declined: Use the sandbox only");
  const inbox = (await call(payer, "read_inbox", {})) as { messages: { kind: string; content: string }[] };
  expect(inbox.messages.map((m) => m.kind)).toEqual(
    expect.arrayContaining(["resource_available", "resource_declined"]),
  );
  expect(inbox.messages.find((m) => m.kind === "resource_declined")?.content).toContain(
    "Use the sandbox only",
  );

  // 4. The Secrets page: write-only, revoke.
  await page.getByRole("link", { name: "Secrets" }).click();
  const row = page.locator('[data-testid="secret-row"][data-secret-name="PAYMENTS_API_KEY"]');
  await expect(row).toContainText("agent payer");
  await expect(row).toContainText("never");
  expect(await page.content()).not.toContain(VALUE);
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  const after = (await call(payer, "list_resources", {})) as { resources: unknown[] };
  expect(after.resources).toEqual([{ name: "PAYMENTS_API_KEY", scope: "agent", available: false }]);
});

test("live: a file request appears in the inbox and the badge without a reload; an oversized file is refused in the browser; the upload supplies it", async ({
  page,
}) => {
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = (await call(owner, "create_goal", {
    title: "Deploy the service",
    description: "Needs the cloud's service account file.",
  })) as { goal_id: number; coordinator_agent_id: number };
  const coordinator = await mcpClient(
    server.url,
    await server.cli("agent", "key", String(goal.coordinator_agent_id)),
  );
  clients.push(coordinator);
  const p = await call(coordinator, "propose_task_tree", {
    goal_id: goal.goal_id,
    tree: { title: "Deploy", description: "Deploy with the service account." },
  });
  await rest("POST", `/api/approvals/${p.proposal_message_id}/approve`, {});
  const snap = (await rest("GET", `/api/goals/${goal.goal_id}`)) as { tasks_tree: { id: number }[] };
  const taskId = snap.tasks_tree[0]?.id as number;

  // The owner's inbox is open and live; nothing is waiting for a credential yet.
  await signIn(page, server.url);
  await page.goto(`${server.url}/questions`);
  await expect(page.getByTestId("inbox-live")).toHaveAttribute("data-live", "yes");
  await expect(page.getByTestId("inbox-requests")).toHaveCount(0);
  await expect(page.getByTestId("nav-request-count")).toHaveCount(0);

  await call(coordinator, "request_resource", {
    name: "SERVICE_ACCOUNT_JSON",
    resource_type: "file",
    reason: "The deploy tool reads the service account from a file",
    task_id: taskId,
  });
  // No reload: the card and the badge arrive through the live stream.
  const card = page
    .getByTestId("inbox-requests")
    .getByTestId("resource-request")
    .filter({ hasText: "SERVICE_ACCOUNT_JSON" });
  await expect(card).toContainText("The deploy tool reads the service account from a file");
  await expect(page.getByTestId("nav-request-count")).toHaveText("1");

  // Over the 256 KiB cap: a clear message, nothing sent.
  await card.getByLabel("File for SERVICE_ACCOUNT_JSON").setInputFiles({
    name: "huge.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.alloc(300_000, 1),
  });
  await card.getByRole("button", { name: "Supply" }).click();
  await expect(card).toContainText("a file secret can be at most 262,144 bytes (256 KiB)");
  await expect(page.getByTestId("nav-request-count")).toHaveText("1");

  await card.getByLabel("File for SERVICE_ACCOUNT_JSON").setInputFiles({
    name: "sa.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.from([0, 255, 1, 254, 10, 0]),
  });
  await card.getByLabel("Scope").selectOption("agent");
  await card.getByRole("button", { name: "Supply" }).click();
  await expect(page.getByTestId("inbox-requests")).toHaveCount(0);
  await expect(page.getByTestId("nav-request-count")).toHaveCount(0);
  const listed = (await call(coordinator, "list_resources", {})) as { resources: unknown[] };
  expect(listed.resources).toContainEqual({ name: "SERVICE_ACCOUNT_JSON", scope: "agent", available: true });

  // #requests is live too: a new request shows there without a reload.
  await page.getByRole("link", { name: /Requests/ }).click();
  await expect(page.getByRole("heading", { name: "#requests" })).toBeVisible();
  await expect(page.getByTestId("inbox-live")).toHaveAttribute("data-live", "yes");
  await call(coordinator, "request_resource", {
    name: "REGISTRY_TOKEN",
    resource_type: "api_key",
    reason: "To push the image",
    task_id: taskId,
  });
  await expect(page.getByTestId("resource-request").filter({ hasText: "REGISTRY_TOKEN" })).toContainText(
    "To push the image",
  );
});
