// The member's own Pause, Resume and Change plan on /account/memberships, in Chromium without client
// JavaScript at 320 px, axe-core clean after each action. Its own server on its own Postgres
// database: the test adds the plans to change between (the demo content has one monthly plan).
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import pg from "pg";
import { expect, test, type Page } from "@playwright/test";
import { closeDriver, createPgDriver } from "../../lib/db/driver";
import { migrate } from "../../lib/db/migrator";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";
import { freePort, startNextServer, type NextServer } from "./next-server";

const adminUrl = process.env.TEST_DATABASE_URL;
const dbName = `sh_e2e_planchange_${randomBytes(4).toString("hex")}`;
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const SCHOOL = "5c400000-0000-4000-8000-000100000001";
const MONTHLY = "5c400000-0000-4000-8000-000300000001";
const PLUS = "5c400000-0000-4000-8000-0003000000b1";
const BASIC = "5c400000-0000-4000-8000-0003000000b2";

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("account: pause, resume and change plan", () => {
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the test adds plans behind the server's back");
  let server: NextServer | undefined;
  let inbox: SmtpInbox | undefined;
  let origin = "";
  let dbUrl = "";

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    await admin.end();
    dbUrl = Object.assign(new URL(adminUrl!), { pathname: `/${dbName}` }).toString();
    const driver = createPgDriver(dbUrl, { max: 1 });
    await migrate({ driver });
    await closeDriver(driver);
    inbox = await startSmtpInbox();
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = startNextServer(port, {
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      MAIL_URL: inbox.url,
      AUTH_SECRET: "plan-change-e2e-secret-plan-change-e2e-secret",
      PLATFORM_DOMAIN: "localhost",
      DEFAULT_SCHOOL: "demo",
      SEED_ON_START: "1",
      REDIS_URL: "",
      KV_REST_API_URL: "",
      KV_REST_API_TOKEN: "",
    });
    await server.healthy();
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      for (const [id, slug, name, price, position] of [
        [PLUS, "monthly-plus", "Monthly Plus", "49.00", 7],
        [BASIC, "monthly-basic", "Monthly Basic", "19.00", 8],
      ]) {
        await db.query(
          `INSERT INTO "MembershipPlan" ("id", "schoolId", "slug", "name", "planType", "interval", "intervalCount", "price", "currency", "status", "position", "updatedAt")
           VALUES ($1, $2, $3, $4, 'recurring', 'month', 1, $5, 'USD', 'published', $6, now())`,
          [id, SCHOOL, slug, name, price, position],
        );
      }
    } finally {
      await db.end();
    }
  });

  test.afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });

  test("each action without JavaScript at 320 px, with the verbs' messages, axe-clean", async ({ browser }) => {
    const res = await fetch(`${origin}/admin/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": KEY },
      body: JSON.stringify({
        query: `mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors } }`,
        variables: { input: { email: "student@schoolhouse.test", planId: MONTHLY, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" } },
      }),
    });
    expect((await res.json()).data.createSubscription.errors).toEqual([]);

    const context = await browser.newContext({ baseURL: origin, viewport: { width: 320, height: 640 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/login?callbackUrl=%2Faccount%2Fmemberships");
    await page.getByLabel("Email").fill("student@schoolhouse.test");
    await page.getByLabel("Password").fill("schoolhouse-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${origin}/account/memberships`);
    const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await fits();

    await page.getByRole("button", { name: "Pause Monthly Membership" }).click();
    await expect(page.getByRole("status")).toContainText("Your membership is paused");
    await expect(page.getByText("Paused", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Resume Monthly Membership" }).click();
    await expect(page.getByRole("status")).toContainText("Your membership is resumed");
    await expectNoAxeViolations(page);

    await page.getByLabel("New plan for Monthly Membership").selectOption({ label: "Monthly Plus, 49.00 USD" });
    await page.getByRole("button", { name: "Change plan" }).click();
    await expect(page.getByRole("status")).toHaveText("Your plan is changed. Any prorated charge is listed under Payments.");
    await expect(page.getByRole("heading", { name: "Monthly Plus" })).toBeVisible();
    await expectNoAxeViolations(page);
    await fits();

    await page.getByLabel("New plan for Monthly Plus").selectOption({ label: "Monthly Basic, 19.00 USD" });
    await page.getByRole("button", { name: "Change plan" }).click();
    await expect(page.getByRole("status")).toContainText("Your plan changes at the end of the current period");
    await expect(page.getByText(/^Monthly Basic from /)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel("New plan for Monthly Plus").selectOption({ label: "Monthly Plus, 49.00 USD (keep)" });
    await page.getByRole("button", { name: "Change plan" }).click();
    await expect(page.getByRole("status")).toHaveText("Your plan stays as it is: the scheduled change is withdrawn.");
    await expect(page.getByText("Scheduled change")).toHaveCount(0);

    // The proration is a payment of the member's own.
    await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Payments" }).click();
    await expect(page.getByText(/20\.00|1\d\.\d\d/).first()).toBeVisible();
    await context.close();
    expect(server!.output()).not.toMatch(/\n\s+at /);
  });
});
