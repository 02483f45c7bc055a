import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEFAULT_DEMO_API_KEY } from "../../lib/demo-secrets";
import { DEMO_IDS } from "../../lib/startup/seed/demo-data";
import { mailedLink } from "./mail-outbox";

// Forgot password, the reset link and email verification, as a member uses them: without client
// JavaScript, at 320 px, axe-core clean, with the links read from the mails the server filed.
test.use({ javaScriptEnabled: false, viewport: { width: 320, height: 900 } });

// axe-core runs in the page, so each page the JavaScript-free member sees is checked again at the
// same address (GET: what the member saw) in a page with JavaScript, at the same width.
let axeBrowser: Browser;
test.beforeAll(({ browser }) => {
  axeBrowser = browser;
});

/** axe-core finds nothing and the page fits 320 px. */
async function expectNoAxeViolations(page: Page) {
  // Explicitly on: contexts made in a test inherit its options (javaScriptEnabled: false).
  const context = await axeBrowser.newContext({ javaScriptEnabled: true, viewport: { width: 320, height: 900 } });
  try {
    const cookies = await page.context().cookies();
    if (cookies.length) await context.addCookies(cookies);
    const checked = await context.newPage();
    await checked.goto(page.url());
    expect(await checked.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const axe = await new AxeBuilder({ page: checked }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  } finally {
    await context.close();
  }
}

const CREATE = `mutation Create($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors } }`;

test("a new member confirms their email, forgets the password, resets it by the mailed link and signs in", async ({ page, request }) => {
  // Seven pages, each also checked by axe-core in a second page, on a shared machine.
  test.setTimeout(180_000);
  const email = `reset.${Date.now().toString(36)}@example.com`;
  const created = await request.post("/admin/graphql", {
    headers: { "x-service-api-key": DEFAULT_DEMO_API_KEY, "content-type": "application/json" },
    data: { query: CREATE, variables: { input: { email, name: "Reset Person", planId: DEMO_IDS.plans.monthly } } },
  });
  expect((await created.json()).data.createSubscription.errors).toEqual([]);

  // The verification mail: its link shows a button, and only the button confirms.
  await page.goto(await mailedLink({ to: email, kind: "verify-email", linkPath: "/account/verify-email" }));
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you: your email address is confirmed.");
  await expectNoAxeViolations(page);

  // Forgot password, from the login page.
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/login\/forgot/);
  await expect(page.locator(".auth-school")).toHaveText("Schoolhouse Demo Academy");
  await expectNoAxeViolations(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account with that email belongs to Schoolhouse Demo Academy");
  await expectNoAxeViolations(page);

  // An unknown email gets the very same answer.
  await page.goto("/login/forgot");
  await page.getByLabel("Email").fill(`nobody.${Date.now().toString(36)}@example.com`);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account with that email belongs to Schoolhouse Demo Academy");

  await page.goto(await mailedLink({ to: email, kind: "password-reset", linkPath: "/account/set-password" }));
  await expect(page.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("New password").fill("my new password 27");
  await page.getByLabel("Repeat the password").fill("my new password 27");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Your password is set. Sign in with it below.")).toBeVisible();
  await page.getByLabel("Password").fill("my new password 27");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
});

test("the forgot-password form refuses a post without its CSRF token and shows why", async ({ page, request }) => {
  test.setTimeout(60_000);
  const res = await request.post("/api/account/forgot-password", { form: { email: "student@schoolhouse.test" }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
  expect(res.headers().location).toBe("/login/forgot?error=csrf");
  await page.goto("/login/forgot?error=csrf");
  await expect(page.getByRole("alert")).toHaveText("The form expired. Please try again.");
  await expectNoAxeViolations(page);
});

test("the development mail page is not served by a production build", async ({ request }) => {
  expect((await request.get("/dev/mail")).status()).toBe(404);
});
