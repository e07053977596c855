// The owner watches a team at work: the team tree, the plan DAG and pending reviews update live while
// agents act over MCP; and the owner manages skills.
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test } from "@playwright/test";
import { mcpClient, sc, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
let token: string;
const clients: Client[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ env: { SWITCHBOARD_WATCHDOG: "0" } });
  token = await server.ownerToken(HARNESS_OWNER.email);
});

test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
});

async function agent(id: string) {
  const client = await mcpClient(server.url, await server.cli("agent", "key", id));
  clients.push(client);
  const call = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
    return sc<T>(r);
  };
  return { id, call };
}

test("the owner sees the team tree, the plan DAG and pending reviews update while agents work", async ({
  page,
}) => {
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Team at work", description: "Ship a small site." },
    }),
  );
  const c = await agent(String(goal.coordinator_agent_id));
  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  await expect(page.getByTestId("live-status")).toHaveText("live");
  await expect(page.getByText("No plan declared yet.")).toBeVisible();

  const t = (id: string, depends_on: string[] = []) => ({
    id,
    role: `${id} dev`,
    skill: "engineer",
    task: `Do ${id}`,
    depends_on,
  });
  await c.call("declare_plan", { tasks: [t("design"), t("build", ["design"]), t("ship", ["build"])] });
  await expect(page.getByTestId("dag-node-design")).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("dag-node-build")).toHaveAttribute("data-status", "blocked");
  await expect(page.getByTestId("dag-node-ship")).toHaveAttribute("data-status", "blocked");

  const spawned = await c.call<{ agent_id: string }>("spawn_agent", { task_id: "design" });
  await expect(page.getByTestId("dag-node-design")).toHaveAttribute("data-status", "in_flight");
  const tree = page.getByTestId("team-tree");
  const child = tree.getByTestId(`agent-${spawned.agent_id}`);
  await expect(child).toBeVisible();
  await expect(child).toContainText("depth 1");
  await expect(child).toContainText("task design");
  await expect(tree.getByTestId(`agent-${c.id}`)).toContainText("leader");

  const d = await agent(spawned.agent_id);
  await d.call("signal_review", { detail: "[REVIEW REQUIRED] mockups in artifacts" });
  const review = page.getByTestId(`review-${spawned.agent_id}`);
  await expect(review).toContainText("mockups in artifacts");
  await expect(review).toContainText(/waiting \d+ s/);
  await expect(child).toHaveAttribute("data-status", "review_pending");
  await page.screenshot({ path: path.join(os.tmpdir(), "switchboard-team-page.png"), fullPage: true });

  await c.call("terminate_child", { agent_id: spawned.agent_id });
  await expect(page.getByTestId("dag-node-design")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("dag-node-build")).toHaveAttribute("data-status", "ready");
  await expect(page.getByText("No review is waiting.")).toBeVisible();
  await expect(child).toContainText("terminating");
  await d.call("read_inbox");
  await expect(child).toHaveAttribute("data-status", "terminated");
  await expect(page.getByTestId("event-timeline")).toContainText("task_done");
});

test("the owner adds and edits a skill", async ({ page }) => {
  await signIn(page, server.url);
  await page.getByRole("link", { name: "Skills" }).click();
  await expect(page).toHaveURL(/\/skills$/);
  for (const s of ["coordinator", "engineer", "reviewer", "researcher"]) {
    await expect(page.getByTestId(`skill-${s}`)).toContainText("built-in");
  }
  await page.getByLabel("Name").fill("Bad Name");
  await page.getByLabel("Description").fill("x");
  await page.getByLabel("System prompt").fill("y");
  await page.getByRole("button", { name: "Add skill" }).click();
  await expect(page.getByText(/lowercase letters/)).toBeVisible();
  await page.getByLabel("Name").fill("frontend_engineer");
  await page.getByLabel("Description").fill("Builds the UI");
  await page.getByLabel("System prompt").fill("You build UIs. {role_description}");
  await page.getByLabel("Allowed tools").fill("send_message, read_inbox, signal_review");
  // Limits (issue 11): per launch turns, per agent spend; empty = none.
  await page.getByLabel("Max turns").fill("3");
  await page.getByLabel("Max cost (cents)").fill("250");
  await page.getByRole("button", { name: "Add skill" }).click();
  const row = page.getByTestId("skill-frontend_engineer");
  await expect(row).toContainText("Builds the UI");
  await expect(row).toContainText("send_message, read_inbox, signal_review");
  await expect(row.getByTestId("skill-limits")).toHaveText("3 turns/launch · $2.50/agent");
  await row.getByRole("link", { name: "Edit" }).click();
  // The list page has a Description field too: wait for the edit page before filling.
  await expect(page).toHaveURL(/\/skills\/frontend_engineer$/);
  await expect(page.getByRole("button", { name: "Save skill" })).toBeVisible();
  await expect(page.getByLabel("Max turns")).toHaveValue("3");
  await expect(page.getByLabel("Max minutes")).toHaveValue("");
  await expect(page.getByLabel("Max cost (cents)")).toHaveValue("250");
  await page.getByLabel("Max minutes").fill("45");
  await page.getByLabel("Max turns").fill("");
  await page.getByLabel("Description").fill("Builds the whole UI");
  await page.getByRole("button", { name: "Save skill" }).click();
  await expect(page.getByTestId("skill-frontend_engineer")).toContainText("Builds the whole UI");
  await expect(page.getByTestId("skill-frontend_engineer").getByTestId("skill-limits")).toHaveText(
    "45 min/launch · $2.50/agent",
  );
  const saved = await (
    await fetch(`${server.url}/api/skills/frontend_engineer`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json();
  expect([saved.max_turns, saved.max_minutes, saved.max_cost_cents]).toEqual([null, 45, 250]);
  // The new skill works in a plan right away.
  const owner = await mcpClient(server.url, token);
  clients.push(owner);
  const goal = sc<{ coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title: "Skill check", description: "Use the new skill." },
    }),
  );
  const c = await agent(String(goal.coordinator_agent_id));
  const plan = await c.call<{ tasks: { skill: string }[] }>("declare_plan", {
    tasks: [{ id: "ui", role: "ui dev", skill: "frontend_engineer", task: "Build it" }],
  });
  expect(plan.tasks[0]?.skill).toBe("frontend_engineer");
});

test("a built-in skill is read-only: the owner copies it to edit, and the copy replaces it for their agents", async ({
  page,
}) => {
  await signIn(page, server.url);
  await page.goto(`${server.url}/skills`);
  await page.getByTestId("skill-reviewer").getByRole("link", { name: "Copy to edit" }).click();
  await expect(page).toHaveURL(/\/skills\/reviewer$/);
  await expect(page.getByTestId("skill-builtin")).toContainText("read-only");
  await expect(page.getByRole("button", { name: "Save skill" })).toHaveCount(0);
  await expect(page.getByLabel("Name of your copy")).toHaveValue("reviewer");
  await page.getByRole("button", { name: "Copy to edit" }).click();
  // The copy's edit page.
  await expect(page.getByRole("button", { name: "Save skill" })).toBeVisible();
  await page.getByLabel("Description").fill("My own strict reviewer");
  await page.getByRole("button", { name: "Save skill" }).click();
  await expect(page).toHaveURL(/\/skills$/);
  await expect(page.getByTestId("skill-reviewer")).toContainText("My own strict reviewer");
  await expect(page.getByTestId("skill-reviewer")).toContainText("your copy");
  await expect(page.getByTestId("skill-reviewer-builtin")).toContainText("replaced by your copy");
  // Over REST: the built-in stays read-only.
  const put = await fetch(`${server.url}/api/skills/engineer`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ description: "x", system_prompt: "y" }),
  });
  expect(put.status).toBe(409);
  expect((await put.json()).error.code).toBe("skill_builtin_read_only");
  // Delete the copy: the built-in is back.
  await page.getByTestId("skill-reviewer").getByRole("link", { name: "Edit" }).click();
  await page.getByRole("button", { name: /Delete my copy/ }).click();
  await expect(page).toHaveURL(/\/skills$/);
  await expect(page.getByTestId("skill-reviewer")).toContainText("built-in");
  await expect(page.getByTestId("skill-reviewer-builtin")).toHaveCount(0);
});
