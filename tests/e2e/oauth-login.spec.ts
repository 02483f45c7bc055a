import { expect, test } from "@playwright/test";

test("login: wrong password shows an error and keeps the destination; right password lands on it; sign-out ends the session", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/login?callbackUrl=%2Fwelcome%3Fx%3D1");
  await page.getByLabel("Email").fill("owner@schoolhouse.test");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("did not match");
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/welcome?x=1");

  await page.getByLabel("Email").fill("owner@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/welcome?x=1`);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "authjs.session-token");
  expect(session?.httpOnly).toBe(true);

  await page.goto("/login/signout");
  await expect(page.getByText("owner@schoolhouse.test")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  expect((await context.cookies()).some((c) => c.name === "authjs.session-token")).toBe(false);
  await context.close();
});

test("login never redirects off-site", async ({ page, baseURL }) => {
  await page.goto("/login?callbackUrl=https%3A%2F%2Fevil.example%2F");
  await page.getByLabel("Email").fill("student@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
});
