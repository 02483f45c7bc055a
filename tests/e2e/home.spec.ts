import { expect, test } from "@playwright/test";

test("the bare host serves the demo school's home page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn skills that ship");
  await expect(page.getByRole("link", { name: "Schoolhouse Demo Academy" })).toBeVisible();
});

test("a school subdomain serves that school", async ({ page, baseURL }) => {
  const url = new URL(baseURL!);
  // Acme is an enterprise-training school: its pages need a member login first.
  await page.goto(`http://acme-training.localhost:${url.port}/`);
  await page.getByLabel("Email").fill("employee@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Corp Training");
});

test("an unknown school is a 404 page", async ({ page, baseURL }) => {
  const url = new URL(baseURL!);
  const res = await page.goto(`http://no-such-school.localhost:${url.port}/`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  // Its home page is this same 404: the page says why instead of linking to itself (issue 29, item 9).
  await expect(page.getByText("No school is served at this address.")).toBeVisible();
  await expect(page.locator("a[href='/']")).toHaveCount(0);
});

test("a missing page of a school links to that school's home page", async ({ page }) => {
  const res = await page.goto("/courses/no-such-course");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
});
