import { expect, type Page } from "@playwright/test";

/** The owner the test harness's `ownerToken()` creates (tests/helpers/server.ts). */
export const HARNESS_OWNER = { email: "owner@example.com", password: "correct-horse-battery" };

/** Sign in on the server at `url` and land on the goals list. */
export async function signIn(page: Page, url: string, owner = HARNESS_OWNER) {
  await page.goto(`${url}/signin`);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/goals$/);
}
