// Per-key revoke in the UI (issue 16 §2): the goal page's key count links to the agent's keys (prefix,
// created, last used, status); Revoke ends that key only (its next call is 401), and another owner's
// browser gets "not found" for the page.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { mcpClient, sc, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
const clients: Client[] = [];

test.beforeAll(async () => {
  server = await startServer({ env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_EMBEDDED_RUNNER: "0" } });
});
test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await server?.stop();
});

async function whoami(key: string) {
  try {
    const c = await mcpClient(server.url, key);
    clients.push(c);
    return sc<{ agent_id: string }>(await c.callTool({ name: "whoami", arguments: {} })).agent_id;
  } catch (e) {
    return String(e);
  }
}

test("the owner sees an agent's keys and revokes one; only that key stops working", async ({
  page,
  browser,
}) => {
  const token = await server.ownerToken(HARNESS_OWNER.email);
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = sc<{ goal_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Keys goal", description: "A goal whose agent has two keys." },
    }),
  );
  const { agent_id, api_key: first } = await server.createAgent({ goal: goal.goal_id, name: "key-holder" });
  const second = await server.agentKey(agent_id);
  expect(await whoami(first)).toBe(String(agent_id)); // the first key has a "last used"

  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  const row = page.getByTestId(`agent-${agent_id}`);
  await expect(row.getByTestId("active-keys")).toHaveText("2");
  await row.getByTestId("active-keys").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/goals/${goal.goal_id}/agents/${agent_id}#keys$`));

  const keys = page.getByTestId("agent-keys");
  await expect(keys.locator("tbody tr")).toHaveCount(2);
  const firstRow = keys.locator("tbody tr").nth(0);
  const secondRow = keys.locator("tbody tr").nth(1);
  await expect(firstRow).toContainText(first.slice(0, 15));
  await expect(secondRow).toContainText(second.slice(0, 15));
  await expect(secondRow).toContainText("never");
  await expect(firstRow).not.toContainText("never");
  await expect(page.getByText(first)).toHaveCount(0); // never the secret
  await page.screenshot({ path: "test-results/agent-keys.png", fullPage: true });

  await firstRow.getByRole("button", { name: "Revoke" }).click();
  await expect(firstRow).toHaveAttribute("data-revoked", "true");
  await expect(firstRow).toContainText("revoked");
  await expect(secondRow).toHaveAttribute("data-revoked", "false");
  await expect(page.getByRole("heading", { name: "API keys (1 active)" })).toBeVisible();

  expect(await whoami(first)).toMatch(/401|unauthorized/i);
  expect(await whoami(second)).toBe(String(agent_id));

  // Another owner's browser: the agent's page (and so its keys) is not found.
  await server.ownerToken("intruder@example.com");
  const other = await browser.newContext();
  const intruder = await other.newPage();
  await signIn(intruder, server.url, { email: "intruder@example.com", password: HARNESS_OWNER.password });
  const r = await intruder.goto(`${server.url}/goals/${goal.goal_id}/agents/${agent_id}`);
  expect(r?.status()).toBe(404);
  await expect(intruder.getByTestId("agent-keys")).toHaveCount(0);
  await other.close();
});
