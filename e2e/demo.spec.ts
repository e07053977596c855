// `npm run demo` in a real browser (issue 11 §5): the demo's own start (lib/standin/demo.ts: hub + embedded
// runner + real Claude Code against the stand-in model), the printed sign-in, the researcher's question live
// on the goal page, the owner's answer and final approval clicked in /questions, and the goal completed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO_EMAIL, DEMO_PASSWORD, type Demo, startDemo } from "../lib/standin/demo";
import { DEMO_QUESTION } from "../lib/standin/demo-team";
import { claudeCodeUnavailable } from "../tests/helpers/claude-code";
import { signIn } from "./sign-in";

const unavailable = claudeCodeUnavailable();
let demo: Demo | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-demo-e2e-"));

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!unavailable) demo = await startDemo({ port: 0, dir });
});

test.afterAll(async () => {
  await demo?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the demo in the browser: the question shows on the goal page, the owner answers and approves, the goal completes", async ({
  page,
}) => {
  test.skip(!!unavailable, `Claude Code cannot start here: ${unavailable}`);
  test.setTimeout(240_000);
  const d = demo as Demo;
  await signIn(page, d.url, { email: DEMO_EMAIL, password: DEMO_PASSWORD });

  // The researcher's question, passed up by the coordinator, appears live on the goal page.
  await page.goto(d.goalUrl);
  await expect(page.getByText(DEMO_QUESTION).first()).toBeVisible({ timeout: 90_000 });

  await page.goto(`${d.url}/questions`);
  const pending = page.getByTestId("pending-questions");
  const question = pending.locator('[data-testid^="question-"]').filter({ hasText: DEMO_QUESTION });
  await question.getByRole("radio", { name: /Executives/ }).check();
  await question.getByRole("button", { name: "Answer" }).click();

  // Both agents hand in, the coordinator approves them and hands the goal to the owner.
  const rest = (p: string) =>
    fetch(`${d.url}${p}`, { headers: { authorization: `Bearer ${d.ownerToken}` } }).then((r) => r.json());
  await expect
    .poll(
      async () =>
        (
          (await rest(`/api/questions?status=pending&goal_id=${d.goalId}`)) as {
            questions: { origin: string }[];
          }
        ).questions.some((q) => q.origin === "root_review"),
      { timeout: 120_000 },
    )
    .toBe(true);
  const review = pending
    .locator('[data-testid^="question-"]')
    .filter({ has: page.getByRole("radio", { name: /Approve/ }) });
  await expect(review).toBeVisible();
  await review.getByRole("radio", { name: /Approve/ }).check();
  await review.getByRole("button", { name: "Answer" }).click();

  await expect
    .poll(async () => ((await rest(`/api/goals/${d.goalId}`)) as { goal: { status: string } }).goal.status, {
      timeout: 30_000,
    })
    .toBe("completed");
  await page.goto(d.goalUrl);
  await expect(page.getByText("completed").first()).toBeVisible();
});
