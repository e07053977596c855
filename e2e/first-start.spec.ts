// First start from another machine (issue 16): /setup asks for the setup token printed on the server's
// console; a wrong token creates nothing; the right one creates the owner and the token file goes away.
// "Another machine" is simulated the way a reverse proxy presents one: an X-Forwarded-For header.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServer, type TestServer } from "../tests/helpers/server";

let server: TestServer;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server?.stop();
});

test("from another machine, setup needs the console's setup token", async ({ browser }) => {
  const context = await browser.newContext({
    // A client may also claim to be the server's own peer: the server overwrites that header.
    extraHTTPHeaders: { "x-forwarded-for": "203.0.113.7", "x-switchboard-peer": "127.0.0.1" },
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/setup`);
  const tokenFile = path.join(String(server.env.SWITCHBOARD_DATA_DIR), "setup.token");
  const token = fs.readFileSync(tokenFile, "utf8").trim();
  expect(token.length).toBeGreaterThan(20);

  await page.getByLabel("Setup token").fill("not-the-token");
  await page.getByLabel("Email").fill("remote@example.com");
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create owner account" }).click();
  await expect(page.getByText("enter the setup token printed on the server's console").first()).toBeVisible();
  await expect(page).toHaveURL(/\/setup$/);

  await page.getByLabel("Setup token").fill(token);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create owner account" }).click();
  await expect(page).toHaveURL(/\/goals$/);
  expect(fs.existsSync(tokenFile)).toBe(false);
  await context.close();
});

test("after ten failed sign-ins for one email, even the right password is refused for a while", async ({
  page,
}) => {
  const attempt = async (password: string) => {
    await page.goto(`${server.url}/signin`);
    await page.getByLabel("Email").fill("remote@example.com");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  for (let i = 0; i < 10; i++) {
    await attempt(`wrong-password-${i}`);
    await expect(page.getByText("Wrong email or password.")).toBeVisible();
  }
  await attempt("correct-horse-battery");
  await expect(page.getByText("Too many failed sign-ins")).toBeVisible();
  await expect(page).toHaveURL(/\/signin/);
});
