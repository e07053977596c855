// The owner's runner controls in the browser (issue 11): an agent's transcript built from what a runner
// reports (live), Stop / Restart from the transcript page, the crash notice's Restart / Terminate, the
// runners page (create a token, shown once; revoke it), and a goal page with 31 agents.
// The runner is driven by hand over its HTTP protocol (docs/runner.md), so nothing here needs a model.
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, type Page, test } from "@playwright/test";
import { mcpClient, sc, startServer, type TestServer } from "../tests/helpers/server";
import { HARNESS_OWNER, signIn } from "./sign-in";

let server: TestServer;
let ownerToken: string;
let runnerToken: string;
let owner: Client;
const clients: Client[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({
    env: { SWITCHBOARD_WATCHDOG: "0", SWITCHBOARD_RUNNER_BACKOFF_MS: "20", SWITCHBOARD_RUNNER_LEASE_S: "30" },
  });
  ownerToken = await server.ownerToken(HARNESS_OWNER.email);
  owner = await mcpClient(server.url, ownerToken);
  clients.push(owner);
  runnerToken = (await server.cli("runner", "token", "create", "--name", "by-hand")).trim();
});

test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await server?.stop();
});

type Json = Record<string, unknown>;
async function runnerCall(url: string, body: Json, token = runnerToken) {
  const r = await server.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Json };
}

/** Take the next launch as runner instance "e2e", fetch its key and report it running. */
async function launchNext() {
  const polled = await runnerCall("/api/runner/poll", {
    instance: "e2e",
    runtimes: ["claude-code", "command"],
    agent_slots: 1,
  });
  const job = polled.json.job as { agent_id: number; launch: number };
  expect(job, JSON.stringify(polled.json)).toBeTruthy();
  const ref = { instance: "e2e", launch: job.launch };
  const key = (await runnerCall(`/api/runner/agents/${job.agent_id}/key`, ref)).json.api_key as string;
  await runnerCall(`/api/runner/agents/${job.agent_id}/state`, { ...ref, state: "running" });
  return { id: job.agent_id, ref, key };
}

const report = (id: number, ref: Json, events: Json[]) =>
  runnerCall(`/api/runner/agents/${id}/events`, { ...ref, events });

async function agentClient(key: string) {
  const c = await mcpClient(server.url, key);
  clients.push(c);
  return async <T = Json>(name: string, args: Json = {}) => {
    const r = await c.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
    return sc<T>(r);
  };
}

async function createGoal(title: string) {
  return sc<{ goal_id: number; coordinator_agent_id: number }>(
    await owner.callTool({
      name: "create_goal",
      arguments: { title, description: `${title}: a test goal.` },
    }),
  );
}

const runState = (page: Page, agentId: number) =>
  page.getByTestId(`agent-${agentId}`).getByTestId("run-state");

test("the transcript shows a tool call a runner reported, live, and Stop / Restart change the run state", async ({
  page,
}) => {
  const goal = await createGoal("Watch the coordinator");
  const c = await launchNext();
  expect(c.id).toBe(goal.coordinator_agent_id);
  await report(c.id, c.ref, [
    { type: "assistant_text", text: "Reading the goal, then planning." },
    { type: "tool_called", toolUseId: "tu_1", name: "mcp__switchboard__list_peers", input: { scope: "all" } },
    { type: "tool_result", toolUseId: "tu_1", isError: false, content: '{"peers":[]}' },
    {
      type: "turn.usage",
      model: "claude-sonnet-4-5",
      inputTokens: 1500,
      outputTokens: 90,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
  ]);

  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  await expect(runState(page, c.id)).toHaveText("running");
  await page.getByTestId(`agent-${c.id}`).getByRole("link", { name: "coordinator", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/goals/${goal.goal_id}/agents/${c.id}$`));
  await expect(page.getByTestId("transcript-live")).toHaveText("live");
  const transcript = page.getByTestId("transcript");
  await expect(transcript.getByTestId("transcript-text")).toContainText("Reading the goal, then planning.");
  const tool = transcript.getByTestId("transcript-tool").filter({ hasText: "mcp__switchboard__list_peers" });
  await expect(tool).toBeVisible();
  await expect(tool.getByTestId("transcript-tool-result")).toBeHidden();
  await tool.locator("summary").click();
  await expect(tool.getByTestId("transcript-tool-result")).toHaveText('{"peers":[]}');
  await expect(transcript.getByTestId("transcript-usage")).toContainText("in 1,500 · out 90");

  // Live: a call recorded now appears without a reload.
  await report(c.id, c.ref, [
    { type: "tool_called", toolUseId: "tu_2", name: "mcp__switchboard__declare_plan", input: { tasks: [] } },
  ]);
  await expect(transcript.getByTestId("transcript-tool").filter({ hasText: "declare_plan" })).toBeVisible();
  await page.screenshot({ path: path.join(os.tmpdir(), "switchboard-transcript.png"), fullPage: true });

  // Stop: stopped at once; its runner is told to stop and its exit keeps it stopped.
  const header = page.getByTestId("agent-header");
  await expect(header.getByTestId("run-state")).toHaveText("running");
  await header.getByRole("button", { name: "Stop" }).click();
  await expect(header.getByTestId("run-state")).toHaveText("stopped");
  expect((await runnerCall(`/api/runner/agents/${c.id}/renew`, c.ref)).json).toEqual({ action: "stop" });
  await runnerCall(`/api/runner/agents/${c.id}/state`, {
    ...c.ref,
    state: "exited",
    stopped: true,
    exit_code: 0,
  });
  await expect(
    transcript.getByTestId("transcript-run").filter({ hasText: "stopped_by_owner" }),
  ).toBeVisible();
  await expect(header.getByTestId("run-state")).toHaveText("stopped");

  // Restart: queued, and the next poll launches it again.
  await header.getByRole("button", { name: "Restart" }).click();
  await expect(header.getByTestId("run-state")).toHaveText("queued");
  const again = await launchNext();
  expect(again.id).toBe(c.id);
  await expect(header.getByTestId("run-state")).toHaveText("running");
  await expect(
    transcript.getByTestId("transcript-run").filter({ hasText: "restart requested" }),
  ).toBeVisible();
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  await expect(runState(page, c.id)).toHaveText("running");
  await page.getByTestId(`agent-${c.id}`).getByRole("button", { name: "Stop" }).click();
  await expect(runState(page, c.id)).toHaveText("stopped");
});

test("the crash notice offers Restart and Terminate", async ({ page }) => {
  const goal = await createGoal("Crashing worker");
  const c = await launchNext();
  const call = await agentClient(c.key);
  await call("declare_plan", { tasks: [{ id: "w", role: "worker", skill: "engineer", task: "Work" }] });
  const w = Number((await call<{ agent_id: string }>("spawn_agent", { task_id: "w" })).agent_id);
  await crashThreeTimes(w);
  await signIn(page, server.url);
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  const notice = page.getByTestId(`crashed-${w}`);
  await expect(notice).toContainText("crashed 3 times in a row");
  await expect(runState(page, w)).toHaveText("crashed");
  await notice.getByRole("button", { name: "Restart" }).click();
  await expect(runState(page, w)).toHaveText("queued");
  await expect(notice).toBeHidden();

  // Crash it three more times, then Terminate from the notice.
  await crashThreeTimes(w);
  await page.reload();
  page.once("dialog", (d) => d.accept());
  await page.getByTestId(`crashed-${w}`).getByRole("button", { name: "Terminate" }).click();
  await expect(page.getByTestId(`agent-${w}`)).toHaveAttribute("data-status", "terminated");
  await expect(page.getByTestId(`crashed-${w}`)).toBeHidden();
});

/** Take each launch of `agentId` as it comes (after its backoff) and report it crashed, three times. */
async function crashThreeTimes(agentId: number) {
  for (let i = 0; i < 3; i++) {
    let launch = 0;
    await expect
      .poll(async () => {
        const r = await runnerCall("/api/runner/poll", {
          instance: "e2e",
          runtimes: ["claude-code"],
          agent_slots: 1,
        });
        const job = r.json.job as { agent_id: number; launch: number } | null;
        if (job) launch = job.launch;
        return job?.agent_id ?? null;
      })
      .toBe(agentId);
    await runnerCall(`/api/runner/agents/${agentId}/state`, {
      instance: "e2e",
      launch,
      state: "crashed",
      exit_code: 1,
      error: `boom ${i}`,
    });
  }
}

test("the runners page creates a runner token (shown once) and revokes it", async ({ page }) => {
  await signIn(page, server.url);
  await page.getByRole("link", { name: "Runners" }).click();
  await expect(page).toHaveURL(/\/runners$/);
  // The hand-driven runner of the tests above has reported in.
  const byHand = page.getByRole("row").filter({ hasText: "by-hand" });
  await expect(byHand.getByTestId("runner-status")).toHaveText("connected");
  await expect(byHand).toContainText("e2e");

  await page.getByLabel("Runner name").fill("build-box");
  await page.getByRole("button", { name: "Create runner token" }).click();
  const shown = page.getByTestId("new-runner-token");
  await expect(shown).toContainText("sb_runner_");
  const secret = ((await shown.locator("code").first().textContent()) ?? "").trim();
  expect(secret).toMatch(/^sb_runner_/);
  expect((await runnerCall("/api/runner/poll", { instance: "bb" }, secret)).status).toBe(200);
  const row = page.getByRole("row").filter({ hasText: "build-box" });
  await expect(row.getByTestId("runner-status")).toHaveText(/connected/);
  // Shown once: not on the page after a reload.
  await page.reload();
  await expect(page.getByText(secret)).toBeHidden();
  page.once("dialog", (d) => d.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row.getByTestId("runner-status")).toHaveText("revoked");
  expect((await runnerCall("/api/runner/poll", { instance: "bb" }, secret)).status).toBe(401);
});

test("a goal with 31 agents: one agents view in team order, filtered by run state", async ({ page }) => {
  const goal = await createGoal("A big team");
  const c = await launchNext();
  const call = await agentClient(c.key);
  const tasks = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${prefix}${i + 1}`,
      role: `${prefix} ${i + 1}`,
      skill: "engineer",
      task: `Do ${prefix} ${i + 1}`,
    }));
  await call("declare_plan", { tasks: tasks("lead", 5) });
  const leads: number[] = [];
  for (let i = 1; i <= 5; i++) {
    leads.push(Number((await call<{ agent_id: string }>("spawn_agent", { task_id: `lead${i}` })).agent_id));
  }
  for (const lead of leads) {
    const l = await launchNext();
    expect(leads).toContain(l.id);
    const lc = await agentClient(l.key);
    await lc("declare_plan", { tasks: tasks(`part${lead}-`, 5) });
    for (let i = 1; i <= 5; i++) await lc("spawn_agent", { task_id: `part${lead}-${i}` });
  }
  await signIn(page, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/goals/${goal.goal_id}`);
  const rows = page.getByTestId("team-tree").locator("tbody tr");
  await expect(rows).toHaveCount(31);
  // Team order: the coordinator, then each lead followed by its own members.
  await expect(rows.nth(0)).toContainText("coordinator");
  await expect(rows.nth(1)).toContainText("lead 1");
  await expect(rows.nth(2)).toContainText(`part${leads[0]}- 1`);
  await page.screenshot({ path: path.join(os.tmpdir(), "switchboard-goal-31-agents.png"), fullPage: true });
  await page
    .getByTestId("team-tree")
    .screenshot({ path: path.join(os.tmpdir(), "switchboard-goal-31-agents-table.png") });
  const filter = page.getByTestId("run-state-filter");
  await filter.getByRole("button", { name: "queued 25" }).click();
  await expect(rows).toHaveCount(25);
  await filter.getByRole("button", { name: "running 6" }).click();
  await expect(rows).toHaveCount(6);
  await filter.getByRole("button", { name: "all 31" }).click();
  await expect(rows).toHaveCount(31);
});
