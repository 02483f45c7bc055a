import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { baseURL } from "../../playwright.config";
import { PASSWORD, expectFits, expectNoAxeViolations, staffBrowser } from "./console-helpers";
import { createSpecDatabase, freePort, startProductionServer, type ProductionServer, type SpecDatabase } from "./next-server";

// The staff console (/manage) in Chromium at 390 px: every page per role (owner, manager, teacher;
// a student gets 403), another school's ids 404, every member action through its form, axe-core
// with no violations, keyboard use, the members and courses pages without JavaScript (keys,
// webhooks and apps: console-settings.spec.ts), and changing a plan at 320 px on a server of its own.
// Axe and server actions on a loaded machine: more than the default 30 s per test.
test.describe.configure({ timeout: 120_000 });
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const IDS = {
  student: "5c400000-0000-4000-8000-000200000006",
  multi: "5c400000-0000-4000-8000-000200000008",
  acmeEmployee: "5c400000-0000-4000-8000-000200000009",
  reviewer: "5c400000-0000-4000-8000-000200000007",
  introToSql: "5c400000-0000-4000-8000-000700000001",
  python: "5c400000-0000-4000-8000-000700000002",
  monthly: "5c400000-0000-4000-8000-000300000001",
};

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${baseURL}/admin/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": KEY }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data: Record<string, { errors: string[]; subscription: { id: string } | null }> };
}

test.describe("access", () => {
  test("a visitor is sent to the login page and back to the console page", async ({ page }) => {
    const res = await page.request.get("/manage/members?q=jam", { maxRedirects: 0 });
    expect(res.status()).toBe(307);
    expect(new URL(res.headers()["location"]!, baseURL).toString()).toBe(`${baseURL}/login?callbackUrl=%2Fmanage%2Fmembers%3Fq%3Djam`);
  });

  test("a student gets 403 on every console page", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "student@schoolhouse.test", "/");
    await expect(page).toHaveURL(`${baseURL}/`);
    for (const path of ["/manage", "/manage/members", `/manage/members/${IDS.student}`, "/manage/courses", `/manage/courses/${IDS.introToSql}`, "/manage/audit"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page is not open to you");
    }
    await expectNoAxeViolations(page);
    await context.close();
  });

  test("a teacher reads their courses' enrollments only: members and the overview are 403", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "teacher@schoolhouse.test");
    // The console's home sends a teacher to their first page.
    await expect(page).toHaveURL(`${baseURL}/manage/courses`);
    await expect(page.getByRole("navigation", { name: "Staff console" }).getByRole("link")).toHaveText(["Courses"]);
    await expect(page.getByRole("link", { name: "Intro to SQL" })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectFits(page);
    await page.getByRole("link", { name: "Intro to SQL" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Enrolled members" })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    await expectNoAxeViolations(page);
    expect((await page.goto("/manage/members"))?.status()).toBe(403);
    expect((await page.goto(`/manage/members/${IDS.student}`))?.status()).toBe(403);
    expect((await page.goto("/manage/audit"))?.status()).toBe(403);
    await context.close();
  });

  test("another school's member and course ids are 404; a garbage id too", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test");
    await expect(page).toHaveURL(`${baseURL}/manage`);
    expect((await page.goto(`/manage/members/${IDS.acmeEmployee}`))?.status()).toBe(404);
    expect((await page.goto("/manage/members/not-a-uuid"))?.status()).toBe(404);
    expect((await page.goto("/manage/courses/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
    await context.close();
  });
});

test.describe("pages", () => {
  test("the owner's overview: figures and charts with text alternatives, brand, nav, by keyboard", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test");
    await expect(page).toHaveURL(`${baseURL}/manage`);
    await expect(page).toHaveTitle(/^Overview · Staff console · Schoolhouse Demo Academy/);
    await expect(page.getByRole("heading", { level: 3, name: "Active members" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: "Monthly recurring revenue", exact: true })).toBeVisible();
    await expect(page.getByRole("img", { name: "New members" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Failed payments by month" })).toHaveCount(1);
    await expectNoAxeViolations(page);
    await expectFits(page);
    // Keyboard: Tab reaches the nav and Enter follows it.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.textContent)) === "Members") break;
    }
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${baseURL}/manage/members`);
    await context.close();
  });

  test("members: search by prefix, filter by plan and state, page by cursor", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", "/manage/members");
    await expect(page).toHaveURL(`${baseURL}/manage/members`);
    await expectNoAxeViolations(page);
    await expectFits(page);
    await page.getByLabel("Email or name starts with").fill("jam");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=jam/);
    await expect(page.getByRole("link", { name: "Jamie Lee" })).toBeVisible();
    await page.getByLabel("Subscription state").selectOption("expired");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No members match.")).toBeVisible();
    // A forged cursor is a message, not an error page.
    const res = await page.goto("/manage/members?after=forged");
    expect(res?.status()).toBe(200);
    await expect(page.locator("p[role=alert]")).toContainText("not valid");
    await context.close();
  });
});

test.describe("audit log", () => {
  test("a manager finds who changed what: filter by who, action and day; a bad day is a message", async ({ browser }) => {
    // A change by an API key through the Admin API: its row names the key, the action and the target.
    const made = await gql(`mutation { createSubscription(input: { email: "audit-e2e@example.com", name: "Audit Reader", planId: "${IDS.monthly}" }) { errors subscription { id } } }`);
    expect(made.data.createSubscription!.errors).toEqual([]);
    const subscriptionId = made.data.createSubscription!.subscription!.id;
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", "/manage/audit");
    await expect(page).toHaveURL(`${baseURL}/manage/audit`);
    await expect(page).toHaveTitle(/^Audit log · Staff console · Schoolhouse Demo Academy/);
    await expectNoAxeViolations(page);
    await expectFits(page);
    const form = page.getByRole("search", { name: "Filter the audit log" });
    await form.getByLabel("Who").selectOption("api_key");
    await form.getByLabel("Action (e.g. subscription.cancel)").fill("subscription.create");
    const today = new Date().toISOString().slice(0, 10);
    await form.getByLabel("From (YYYY-MM-DD)").fill(today);
    await form.getByLabel("To (YYYY-MM-DD)").fill(today);
    await form.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/actor=api_key/);
    const row = page.getByRole("row").filter({ hasText: subscriptionId });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("subscription.create");
    await expect(row).toContainText("API key");
    await expectNoAxeViolations(page);
    await expectFits(page);
    // A day that does not exist is said, and the log is shown without it.
    const res = await page.goto("/manage/audit?from=2026-02-31");
    expect(res?.status()).toBe(200);
    await expect(page.locator("p[role=alert]")).toHaveText('"From" must be a day as YYYY-MM-DD.');
    await context.close();
  });
});

test.describe("member actions", () => {
  test("a manager runs every subscription action through the member page", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", `/manage/members/${IDS.student}`);
    await expect(page).toHaveURL(`${baseURL}/manage/members/${IDS.student}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jamie Lee");
    await expectNoAxeViolations(page);
    await expectFits(page);
    const form = page.getByRole("form", { name: "Create a subscription" });
    await form.locator("select[name=plan]").selectOption(IDS.monthly);
    await form.getByRole("button", { name: "Create subscription" }).click();
    await expect(page.getByRole("status")).toHaveText("The subscription is created.");
    await page.getByRole("button", { name: /^Cancel .* at period end$/ }).first().click();
    await expect(page.getByRole("status")).toHaveText("The subscription will end at the end of the current period.");
    await page.getByRole("button", { name: /^Undo the cancellation of / }).first().click();
    await expect(page.getByRole("status")).toHaveText("The cancellation is undone: the subscription continues.");
    await page.getByRole("button", { name: /^Pause / }).first().click();
    await expect(page.getByRole("status")).toHaveText("The subscription is paused.");
    await page.getByRole("button", { name: /^Resume / }).first().click();
    await expect(page.getByRole("status")).toHaveText("The subscription is resumed.");
    const period = page.getByRole("form", { name: /^Change the period of / }).first();
    await period.getByLabel("Current period ends on").fill("2099-01-01");
    await period.getByRole("button", { name: "Change period" }).click();
    await expect(page.locator("p[role=alert]")).toContainText("Timestamp cannot be more than 10 years in the future");
    const enroll = page.getByRole("form", { name: "Enroll in a course" });
    await enroll.getByLabel("Course").selectOption(IDS.python);
    await enroll.getByRole("button", { name: "Enroll" }).click();
    await expect(page.getByRole("status")).toHaveText("The member is enrolled in the course.");
    await page.getByRole("button", { name: "Send a password link" }).click();
    await expect(page.getByRole("status")).toContainText("A password link is on its way to student@schoolhouse.test");
    await page.getByRole("button", { name: /^Cancel .* now$/ }).first().click();
    await expect(page.getByRole("status")).toHaveText("The subscription is cancelled now.");
    await expectNoAxeViolations(page);
    await context.close();
  });

  test("a refund: money back, the form asks no password right after sign-in", async ({ browser }) => {
    const created = await gql(
      `mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`,
      { input: { email: "multi@schoolhouse.test", planId: IDS.monthly, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" } },
    );
    test.skip(!created.data?.createSubscription?.subscription, "no charged payment to refund");
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", `/manage/members/${IDS.multi}`);
    const refund = page.getByRole("form", { name: /^Refund the payment of / }).first();
    await expect(refund.getByLabel("Your password")).toHaveCount(0);
    await refund.getByRole("button", { name: /^Refund / }).click();
    await expect(page.getByRole("status")).toHaveText("The payment is refunded.");
    await expectNoAxeViolations(page);
    await context.close();
  });

  test("disabling a member ends their session and refuses their sign-in; enabling lets them back", async ({ browser }) => {
    const member = await staffBrowser(browser, "multi@schoolhouse.test", "/account");
    await expect(member.page).toHaveURL(`${baseURL}/account`);
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", `/manage/members/${IDS.multi}`);
    await page.getByRole("button", { name: "Disable this member" }).click();
    await expect(page.getByRole("status")).toContainText("The member is disabled here");
    await member.page.goto("/");
    // The session ended (login page) or, were it alive, the account pages refuse (403): never the account.
    const account = await member.page.goto("/account");
    expect(account?.status() === 403 || new URL(member.page.url()).pathname === "/login").toBe(true);
    await member.page.goto("/login?callbackUrl=%2Faccount");
    await member.page.getByLabel("Email").fill("multi@schoolhouse.test");
    await member.page.getByLabel("Password").fill(PASSWORD);
    await member.page.getByRole("button", { name: "Sign in" }).click();
    await expect(member.page).toHaveURL(/\/login/);
    await page.getByRole("button", { name: "Enable this member" }).click();
    await expect(page.getByRole("status")).toHaveText("The member is enabled: they can sign in here again.");
    await member.context.close();
    await context.close();
  });
});

test.describe("without JavaScript", () => {
  test("members: search, then a member action through its form", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", "/manage/members", { javaScript: false });
    await expect(page).toHaveURL(`${baseURL}/manage/members`);
    await page.getByLabel("Email or name starts with").fill("jam");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=jam/);
    await expect(page.getByRole("link", { name: "Jamie Lee" })).toBeVisible();
    await page.goto(`/manage/members/${IDS.reviewer}`);
    await page.getByRole("button", { name: "Send a password link" }).click();
    await expect(page).toHaveURL(new RegExp(`/manage/members/${IDS.reviewer}\\?notice=`));
    await expect(page.getByRole("status")).toContainText("A password link is on its way to reviewer@schoolhouse.test");
    await context.close();
  });

  test("courses: a teacher opens a course's enrollments", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "teacher@schoolhouse.test", "/manage", { javaScript: false });
    await expect(page).toHaveURL(`${baseURL}/manage/courses`);
    await page.getByRole("link", { name: "Intro to SQL" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Enrolled members" })).toBeVisible();
    await context.close();
  });
});

// Changing a plan needs a second plan of the same interval and currency, which the demo school has
// not: a server of its own on Postgres, with two more monthly plans written behind its back.
const adminUrl = process.env.TEST_DATABASE_URL;
const PLUS = "5c400000-0000-4000-8000-0000000003c1";
const BASIC = "5c400000-0000-4000-8000-0000000003c2";
test.describe("change plan", () => {
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the test adds plans behind the server's back");
  test.describe.configure({ timeout: 300_000 });
  let database: SpecDatabase | undefined;
  let server: ProductionServer | undefined;
  // Production mode refuses the README's demo password on DATABASE_URL: a fresh one.
  const password = `e2e-${randomBytes(9).toString("base64url")}`;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    database = await createSpecDatabase({ adminUrl: adminUrl!, prefix: "sh_e2e_console_plan" });
    // A free port of the system's choosing: E2E_PORT is the suite's server.
    server = await startProductionServer({ port: await freePort(), databaseUrl: database.url, env: { DIRECT_DATABASE_URL: database.url, DEMO_PASSWORD: password } });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const [id, slug, name, price] of [[PLUS, "monthly-plus", "Monthly Plus", 49], [BASIC, "monthly-basic", "Monthly Basic", 19]] as const) {
        await client.query(
          `INSERT INTO "MembershipPlan" ("id", "schoolId", "slug", "name", "planType", "interval", "intervalCount", "price", "currency", "status", "updatedAt")
           SELECT $1, "id", $2, $3, 'recurring', 'month', 1, $4, 'USD', 'published', now() FROM "School" WHERE "subdomain" = 'demo'`,
          [id, slug, name, price],
        );
      }
    } finally {
      await client.end();
    }
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("a manager upgrades now, schedules a downgrade without JavaScript and withdraws it (320 px)", async ({ browser }) => {
    const base = server!.origin;
    const path = `/manage/members/${IDS.student}`;
    const { context, page } = await staffBrowser(browser, "manager@schoolhouse.test", path, { base, width: 320, password });
    await expect(page).toHaveURL(`${base}${path}`);
    const create = page.getByRole("form", { name: "Create a subscription" });
    await create.locator("select[name=plan]").selectOption(IDS.monthly);
    await create.getByRole("button", { name: "Create subscription" }).click();
    await expect(page.getByRole("status")).toHaveText("The subscription is created.");
    const change = page.getByRole("form", { name: "Change the plan of Monthly Membership" });
    await expect(change.getByLabel("New plan").locator("option")).toHaveText(["Monthly Plus, 49.00 USD", "Monthly Basic, 19.00 USD"]);
    await expectNoAxeViolations(page);
    await expectFits(page, 320);
    await change.getByLabel("New plan").selectOption({ label: "Monthly Plus, 49.00 USD" });
    await change.getByRole("button", { name: "Change plan" }).click();
    await expect(page.getByRole("status")).toHaveText("The subscription is now on Monthly Plus.");
    await expect(page.getByRole("heading", { level: 3, name: "Monthly Plus" })).toBeVisible();
    await context.close();

    const noJs = await staffBrowser(browser, "manager@schoolhouse.test", path, { base, width: 320, javaScript: false, password });
    const again = noJs.page.getByRole("form", { name: "Change the plan of Monthly Plus" });
    await again.getByLabel("New plan").selectOption({ label: "Monthly Basic, 19.00 USD" });
    await again.getByRole("button", { name: "Change plan" }).click();
    await expect(noJs.page.getByRole("status")).toHaveText("The subscription moves to Monthly Basic at the end of the current period; it stays on Monthly Plus until then.");
    await expect(noJs.page.getByText(/moves to Monthly Basic on /)).toBeVisible();
    const keep = noJs.page.getByRole("form", { name: "Change the plan of Monthly Plus" });
    await keep.getByLabel("New plan").selectOption({ label: "Monthly Plus, 49.00 USD (keep this plan)" });
    await keep.getByRole("button", { name: "Change plan" }).click();
    await expect(noJs.page.getByRole("status")).toHaveText("The scheduled plan change is withdrawn: the subscription stays on Monthly Plus.");
    await expect(noJs.page.getByText(/moves to Monthly Basic on /)).toHaveCount(0);
    await noJs.context.close();
  });
});
