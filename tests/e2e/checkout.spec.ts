// Checkout on the storefront in Chromium, on a server of its own on Postgres (the test clock is
// moved by `npm run school`, a second process on the same database): buy the monthly plan with the
// succeeding test card and see it through the Admin API; the declined card shows the card's error
// and creates nothing live; a trial plan starts trialing; the test clock moved a month renews the
// monthly plan, the payment is listed on /account/payments, and the webhooks arrive verified with
// standardwebhooks. A paid course bought once from its storefront page: a declined card creates
// nothing, 4242 enrolls a new account (signed in) and the course is on /account/courses. Every new
// page: axe-core 0 violations, 320 px wide.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import pg from "pg";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { freePort, startWebhookTestServer, type NextServer } from "./next-server";

const adminUrl = process.env.TEST_DATABASE_URL;
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const TRIAL_PLAN = "5c400000-0000-4000-8000-0000000003e1";
const dbName = `sh_e2e_checkout_${randomBytes(4).toString("hex")}`;
const ROOT = path.resolve(import.meta.dirname, "../..");
let dbUrl = "";
let base = "";
let server: NextServer | undefined;
let receiver: Receiver;
/** The buyer's browser, signed in by the checkout (kept for the renewal test). */
let buyerContext: BrowserContext | undefined;

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/admin/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": KEY }, body: JSON.stringify({ query, variables }) });
  return res.json();
}

const SUBS = `query($email: String!) { subscriptions(email: $email, first: 10) { nodes { id state plan { id } currentPeriodEnd payments { state amount billingReason } } } }`;
async function subscriptionsOf(email: string) {
  const r = await gql(SUBS, { email });
  return r.data.subscriptions.nodes as Array<{ id: string; state: string; plan: { id: string }; currentPeriodEnd: number; payments: Array<{ state: string; amount: string; billingReason: string }> }>;
}

async function checkPage(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
}

test.describe("checkout in the browser", () => {
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the test clock is moved by a second process on the same database");
  test.describe.configure({ timeout: 300_000, mode: "serial" });

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE "${dbName}"`);
    await client.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    receiver = await startReceiver();
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = await startWebhookTestServer({ port, databaseUrl: dbUrl, apiKey: KEY });
    // A plan with a trial, as a content file with `trialDays: 14` would import it.
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    await db.query(
      `INSERT INTO "MembershipPlan" ("id", "schoolId", "slug", "name", "planType", "interval", "intervalCount", "price", "currency", "trialDays", "updatedAt")
       SELECT $1, "id", 'trial-monthly', 'Monthly with a free trial', 'recurring', 'month', 1, 19, 'USD', 14, now() FROM "School" WHERE "subdomain" = 'demo'`,
      [TRIAL_PLAN],
    );
    await db.end();
    const created = await gql(`mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { errors secret } }`, {
      input: { url: receiver.url, events: ["subscription.created", "subscription.renewed", "payment.succeeded", "enrollment.created"] },
    });
    expect(created.data.createWebhookEndpoint.errors).toEqual([]);
    receiver.secrets.push(created.data.createWebhookEndpoint.secret);
  });

  test.afterAll(async () => {
    await buyerContext?.close();
    await server?.stop("SIGKILL");
    await receiver?.close();
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.end();
  });

  const buyer = `buyer.${dbName}@example.com`;

  test("a declined card shows its error and creates nothing; 4242 buys the monthly plan, seen through the Admin API", async ({ browser }) => {
    buyerContext = await browser.newContext({ baseURL: base, viewport: { width: 320, height: 700 } });
    const page = await buyerContext.newPage();
    await page.goto("/plans/monthly");
    await page.getByRole("link", { name: "Join Monthly Membership" }).click();
    await expect(page).toHaveURL(`${base}/checkout/plans/monthly`);
    await expect(page.getByText("Prices include no tax; coupons are not available.").first()).toBeVisible();
    await checkPage(page);
    await page.getByLabel("Email").fill(buyer);
    await page.getByLabel("Your name").fill("Browser Buyer");
    await page.getByRole("button", { name: "Join and pay" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
    await expect(page.getByText("Test mode", { exact: false }).first()).toBeVisible();
    await checkPage(page);

    await page.getByLabel("Card number").fill("4000000000000002");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await expect(page.getByRole("alert")).toContainText("Your card was declined.");
    await checkPage(page);
    expect(await subscriptionsOf(buyer)).toEqual([]);

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\//);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout complete");
    await checkPage(page);

    const [sub] = await subscriptionsOf(buyer);
    expect(sub).toMatchObject({ state: "active", payments: [{ state: "succeeded", amount: "29.00", billingReason: "subscription_create" }] });

    // Signed in by the checkout: the receipt is one click away.
    await page.getByRole("link", { name: "Your receipt" }).click();
    await expect(page).toHaveURL(/\/account\/payments\//);
    await expect(page.locator("main")).toContainText("29.00");
  });

  test("a trial plan starts trialing", async ({ browser }) => {
    const email = `trial.${dbName}@example.com`;
    const context = await browser.newContext({ baseURL: base, viewport: { width: 320, height: 700 } });
    const page = await context.newPage();
    await page.goto("/checkout/plans/trial-monthly");
    await checkPage(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Your name").fill("Trial Buyer");
    await page.getByRole("button", { name: "Start free trial" }).click();
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByRole("button", { name: "Save card and start trial" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout complete");
    await expect(page.locator("main")).toContainText("Free trial until");
    const [sub] = await subscriptionsOf(email);
    expect(sub).toMatchObject({ state: "trialing", payments: [] });
    await context.close();
  });

  test("the test clock moved a month: renewed, the payment listed on /account/payments, webhooks verified", async () => {
    const [before] = await subscriptionsOf(buyer);
    await promisify(execFile)(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/school.ts", "test-clock", "advance", "--school", "demo", "--to", "+32d"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl, NODE_ENV: "test" },
    });
    const [after] = await subscriptionsOf(buyer);
    expect(after!.state).toBe("active");
    expect(after!.currentPeriodEnd).toBeGreaterThan(before!.currentPeriodEnd);
    expect(after!.payments.map((p) => p.billingReason)).toEqual(["subscription_create", "subscription_cycle"]);

    await expect
      .poll(() => receiver.received.filter((r) => r.payload.type === "subscription.renewed" && r.payload.data.id === after!.id).length, { timeout: 30_000 })
      .toBe(1);
    const mine = receiver.received.filter((r) => r.payload.data.id === after!.id || r.payload.data.subscriptionId === after!.id);
    expect(mine.every((r) => r.verifiedWith === 0)).toBe(true);
    expect(mine.filter((r) => r.payload.type === "payment.succeeded")).toHaveLength(2);

    // The renewal on the buyer's account page (the session the checkout signed in).
    const page = await buyerContext!.newPage();
    await page.goto("/account/payments");
    await expect(page.locator("main")).toContainText("29.00");
    expect((await page.locator("main").innerText()).match(/29\.00/g)!.length).toBeGreaterThanOrEqual(2);
    await checkPage(page);
  });

  test("a paid course: the declined card creates nothing; 4242 enrolls a new account, seen on /account/courses", async ({ browser }) => {
    const email = `course.${dbName}@example.com`;
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const owned = async () => {
      const enrollments = await db.query(`SELECT e."id" FROM "Enrollment" e JOIN "User" u ON u."id" = e."userId" JOIN "Course" c ON c."id" = e."courseId" WHERE u."email" = $1 AND c."slug" = 'intro-to-sql'`, [email]);
      const payments = await db.query(`SELECT p."amount"::text, p."billingReason"::text, p."subscriptionId" FROM "Payment" p JOIN "User" u ON u."id" = p."userId" WHERE u."email" = $1`, [email]);
      const users = await db.query(`SELECT 1 FROM "User" WHERE "email" = $1`, [email]);
      return { enrollments: enrollments.rowCount, payments: payments.rows, users: users.rowCount };
    };
    const context = await browser.newContext({ baseURL: base, viewport: { width: 320, height: 700 } });
    try {
      const page = await context.newPage();
      await page.goto("/courses/intro-to-sql");
      await checkPage(page);
      await page.getByRole("link", { name: "Buy Intro to SQL" }).click();
      await expect(page).toHaveURL(`${base}/checkout/courses/intro-to-sql`);
      await expect(page.locator("main")).toContainText("49.00 USD");
      await expect(page.locator("main")).toContainText("One-time; no subscription");
      await checkPage(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Your name").fill("Course Buyer");
      await page.getByRole("button", { name: "Buy now" }).click();
      await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
      await expect(page.getByText("Test mode", { exact: false }).first()).toBeVisible();

      await page.getByLabel("Card number").fill("4000000000000002");
      await page.getByRole("button", { name: /^Pay/ }).click();
      await expect(page.getByRole("alert")).toContainText("Your card was declined.");
      await checkPage(page);
      expect(await owned()).toEqual({ enrollments: 0, payments: [], users: 0 });

      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByRole("button", { name: /^Pay/ }).click();
      await expect(page).toHaveURL(/\/checkout\/complete\//);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout complete");
      await expect(page.getByRole("status")).toContainText("you are enrolled in Intro to SQL");
      await checkPage(page);
      expect(await owned()).toEqual({ enrollments: 1, payments: [{ amount: "49.00", billingReason: "one_time", subscriptionId: null }], users: 1 });

      // Signed in by the checkout: the course is on the account's courses page, the receipt a click away.
      await page.getByRole("link", { name: "Your courses" }).click();
      await expect(page).toHaveURL(/\/account\/courses/);
      await expect(page.locator("main")).toContainText("Intro to SQL");
      await checkPage(page);
      await page.goto("/account/payments");
      await expect(page.locator("main")).toContainText("Intro to SQL");
      await page.getByRole("link", { name: /^Receipt for/ }).first().click();
      await expect(page.locator("main")).toContainText("One-time purchase, no subscription");
      await checkPage(page);

      // The same course again: the review page says it is owned and offers no purchase.
      await page.goto("/checkout/courses/intro-to-sql");
      await expect(page.locator("main")).toContainText("You are already enrolled in this course.");
      await expect(page.getByRole("button")).toHaveCount(0);

      // The purchase's webhooks, in the transaction that made it, delivered and verified.
      await expect
        .poll(() => receiver.received.filter((r) => r.payload.type === "enrollment.created" && r.payload.data.user?.email === email).length, { timeout: 30_000 })
        .toBe(1);
      const paid = receiver.received.filter((r) => r.payload.type === "payment.succeeded" && r.payload.data.billingReason === "one_time");
      expect(paid.map((r) => [r.payload.data.description, r.payload.data.amount, r.verifiedWith])).toEqual([["Intro to SQL", "49.00", 0]]);
    } finally {
      await context.close();
      await db.end();
    }
  });
});
