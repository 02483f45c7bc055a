import { createHash, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import pg from "pg";
import { hashPassword } from "../../lib/auth/password";
import { baseURL } from "../../playwright.config";
import { createSpecDatabase, freePort, startProductionServer, type ProductionServer, type SpecDatabase } from "./next-server";

// Sign-in everywhere and the member's own account pages (/account), in Chromium without relying
// on client JavaScript for any form: the header's Sign in link and member menu, the page cache
// never carrying a member's name, and every account action.
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const MONTHLY = "5c400000-0000-4000-8000-000300000001";
const PASSWORD = "schoolhouse-demo";

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A fresh browser (own cookies) at 320 px, signed in as `email` through the login page. */
async function memberBrowser(browser: Browser, email: string, opts: { javaScript?: boolean } = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 }, javaScriptEnabled: opts.javaScript ?? true });
  const page = await context.newPage();
  await page.goto("/login?callbackUrl=%2F");
  await signIn(page, email);
  await expect(page).toHaveURL(`${baseURL}/`);
  return { context, page };
}

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${baseURL}/admin/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": KEY },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data: Record<string, { errors: string[]; subscription: { id: string } | null }> };
}

test.describe("the storefront header", () => {
  test("a visitor sees Sign in, back to the page they are on; the login page names the school and links back", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/courses/intro-to-sql");
    const signInLink = page.getByRole("link", { name: "Sign in" });
    await expect(signInLink).toHaveAttribute("href", "/login?callbackUrl=%2Fcourses%2Fintro-to-sql");
    await expectNoAxeViolations(page);
    await signInLink.click();
    await expect(page).toHaveTitle(/^Sign in · Schoolhouse Demo Academy/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to Schoolhouse Demo Academy");
    await expect(page.getByRole("link", { name: "Back to Schoolhouse Demo Academy" })).toHaveAttribute("href", "/");
    await expectNoAxeViolations(page);
    await signIn(page, "student@schoolhouse.test");
    await expect(page).toHaveURL(`${baseURL}/courses/intro-to-sql`);
    await expect(page.locator("summary")).toContainText("Jamie Lee");
  });

  test("member A's name never reaches member B's page or a visitor's, in any order", async ({ browser, request }) => {
    const a = await memberBrowser(browser, "student@schoolhouse.test");
    const b = await memberBrowser(browser, "multi@schoolhouse.test");
    for (const path of ["/", "/courses/intro-to-sql", "/faq"]) {
      for (let round = 0; round < 2; round++) {
        const asA = await (await a.context.request.get(path)).text();
        const anonymous = await (await request.get(path)).text();
        const asB = await (await b.context.request.get(path)).text();
        expect(asA).toContain("Jamie Lee");
        expect(asA).not.toContain("Rin Takeda");
        expect(asB).toContain("Rin Takeda");
        expect(asB).not.toContain("Jamie Lee");
        expect(anonymous).not.toContain("Jamie Lee");
        expect(anonymous).not.toContain("Rin Takeda");
        expect(anonymous).toContain(">Sign in<");
      }
    }
    const res = await a.context.request.get("/courses/intro-to-sql");
    expect(res.headers()["cache-control"]).toContain("no-store");
    await a.context.close();
    await b.context.close();
  });

  test("the member menu opens by keyboard without JavaScript, leads to the account and signs out on the server", async ({ browser }) => {
    const { context, page } = await memberBrowser(browser, "ta@schoolhouse.test", { javaScript: false });
    await page.goto("/faq");
    const summary = page.locator("summary", { hasText: "Priya Nair" });
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
    await page.getByRole("link", { name: "Account" }).click();
    await expect(page).toHaveURL(`${baseURL}/account`);
    await page.locator("summary", { hasText: "Priya Nair" }).click();
    const cookies = await context.cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    // The old cookie no longer works: the server ended the session, not only the browser's copy.
    const replay = await browser.newContext({ baseURL });
    await replay.addCookies(cookies);
    const res = await replay.request.get("/account", { maxRedirects: 0 });
    expect(res.status()).toBe(307);
    expect(res.headers().location).toContain("/login?callbackUrl=%2Faccount");
    await replay.close();
    await context.close();
  });
});

test.describe("/account", () => {
  test("a visitor is sent to sign in and comes back; an account of another school gets a clear 403", async ({ page, browser }) => {
    await page.goto("/account/memberships");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Faccount%2Fmemberships/);
    await signIn(page, "reviewer@schoolhouse.test");
    await expect(page).toHaveURL(`${baseURL}/account/memberships`);

    const acme = await browser.newContext({ baseURL });
    const other = await acme.newPage();
    await other.goto("/login?callbackUrl=%2F");
    await signIn(other, "employee@schoolhouse.test");
    const res = await other.goto("/account");
    expect(res?.status()).toBe(403);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("You are not a member of Schoolhouse Demo Academy");
    await expectNoAxeViolations(other);
    await acme.close();
  });

  test("profile: the name is saved; a wrong current password changes nothing and says so; the email changes with the password", async ({ browser }) => {
    const { context, page } = await memberBrowser(browser, "teacher@schoolhouse.test", { javaScript: false });
    await page.goto("/account");
    await expect(page).toHaveTitle(/^Profile · Your account · Schoolhouse Demo Academy/);
    await page.getByLabel("Name").fill("Tomás R. Rivera");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("status")).toHaveText("Your name is saved.");
    await expect(page.locator("summary")).toContainText("Tomás R. Rivera");
    await page.getByLabel("Name").fill("Tomás Rivera");
    await page.getByRole("button", { name: "Save name" }).click();

    await page.getByLabel("Current password").fill("wrong-password-here");
    await page.getByLabel("New password", { exact: true }).fill("another-good-password");
    await page.getByLabel("Repeat the new password").fill("another-good-password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("alert")).toHaveText("Your current password was not correct. Nothing was changed.");

    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("another-good-password");
    await page.getByLabel("Repeat the new password").fill("another-good-password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password is changed.");
    await page.getByLabel("Current password").fill("another-good-password");
    await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat the new password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password is changed.");

    // Email: the password is required; another account's email is refused; a new one is saved, to confirm by mail.
    const email = page.getByRole("textbox", { name: "Email" });
    await email.fill("tomas.new@schoolhouse.test");
    await page.getByLabel("Your password").fill("wrong-password-here");
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(page.getByRole("alert")).toHaveText("Your current password was not correct. Nothing was changed.");
    await expect(email).toHaveValue("teacher@schoolhouse.test");
    await email.fill("student@schoolhouse.test");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(page.getByRole("alert")).toHaveText("That email belongs to another account on this platform. Nothing was changed.");
    await email.fill("tomas.new@schoolhouse.test");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(page.getByRole("status")).toContainText("Your email is changed. We sent a link to the new address");
    await expect(email).toHaveValue("tomas.new@schoolhouse.test");
    await email.fill("teacher@schoolhouse.test");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(email).toHaveValue("teacher@schoolhouse.test");
    await context.close();
  });

  test("memberships: cancel at period end, then undo it; payments and courses have honest empty states", async ({ browser }) => {
    const created = await gql(`mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`, {
      input: { email: "manager@schoolhouse.test", planId: MONTHLY },
    });
    expect(created.data.createSubscription!.errors).toEqual([]);
    const { context, page } = await memberBrowser(browser, "manager@schoolhouse.test", { javaScript: false });
    await page.goto("/account/memberships");
    await expect(page.getByRole("heading", { name: "Monthly", exact: false }).first()).toBeVisible();
    await expect(page.getByText("Next charge")).toBeVisible();
    await page.getByRole("button", { name: /^Cancel .* at period end$/ }).click();
    await expect(page.getByRole("status")).toContainText("will end at the end of the current period");
    await expect(page.getByText(/Active, ends /)).toBeVisible();
    await page.getByRole("button", { name: /^Keep / }).click();
    await expect(page.getByRole("status")).toHaveText("Your membership continues: the cancellation is undone.");
    await expect(page.getByRole("button", { name: /^Cancel .* at period end$/ })).toBeVisible();

    await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Payments" }).click();
    await expect(page.getByText("No payments yet")).toBeVisible();
    await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Courses" }).click();
    await expect(page).toHaveURL(`${baseURL}/account/courses`);
    // Someone else's payment id is a 404, never a receipt.
    const res = await page.goto("/account/payments/5c400000-0000-4000-8000-000000000000");
    expect(res?.status()).toBe(404);
    await context.close();
  });

  test("connected apps: an app the member allowed is listed with its scopes in plain words and can be disconnected", async ({ browser }) => {
    const { context, page } = await memberBrowser(browser, "admin@schoolhouse.test");
    await page.route("http://127.0.0.1:49152/**", (route) => route.fulfill({ body: "callback" }));
    const verifier = "e2e-account-verifier-0123456789-abcdefghijklmnop";
    await page.goto(
      `/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: "demo-public-app",
        redirect_uri: "http://127.0.0.1:49152/callback",
        scope: "openid profile email",
        state: "account",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      })}`,
    );
    // The bare host shows the default school: the picker preselects it.
    await expect(page.getByLabel("Schoolhouse Demo Academy")).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:49152\/callback/);
    await page.goto("/account/apps");
    await expect(page.getByRole("heading", { name: "Demo Public App" })).toBeVisible();
    await expect(page.getByText("See your email address")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Disconnect Demo Public App" }).click();
    await expect(page.getByRole("status")).toHaveText("The app is disconnected. It can no longer use your account.");
    await expect(page.getByText("No app is connected to your account at this school.")).toBeVisible();
    await context.close();
  });

  test("sessions: each browser listed with a device hint; sign out of every other one", async ({ browser }) => {
    const first = await memberBrowser(browser, "owner@schoolhouse.test", { javaScript: false });
    const second = await memberBrowser(browser, "owner@schoolhouse.test");
    await first.page.goto("/account/sessions");
    await expect(first.page.getByRole("heading", { name: /\(this browser\)$/ })).toBeVisible();
    await expect(first.page.getByRole("heading", { name: /^Chrome on Linux/ })).toHaveCount(2);
    await first.page.getByRole("button", { name: "Sign out of every other session" }).click();
    await expect(first.page.getByRole("status")).toHaveText("Every other session is signed out.");
    await expect(first.page.getByRole("heading", { name: /^Chrome on Linux/ })).toHaveCount(1);
    const res = await second.page.goto("/account");
    expect(new URL(second.page.url()).pathname).toBe("/login");
    expect(res?.ok()).toBe(true);
    await first.context.close();
    await second.context.close();
  });

  test("update payment method: test mode lists the test cards; an unknown number is refused, a test card saved (no JavaScript, 320 px, axe)", async ({ browser }) => {
    const created = await gql(`mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`, {
      input: { email: "reviewer@schoolhouse.test", planId: MONTHLY, collectionMethod: "charge_automatically", paymentMethod: "4000000000000341" },
    });
    expect(created.data.createSubscription!.errors).toEqual([]);
    const id = created.data.createSubscription!.subscription!.id;
    const { context, page } = await memberBrowser(browser, "reviewer@schoolhouse.test", { javaScript: false });
    // axe-core runs in the page, so each state the no-JavaScript page reaches is checked again in a
    // browser with JavaScript, at the same address.
    const withJs = await memberBrowser(browser, "reviewer@schoolhouse.test");
    const axeAt = async (url: string) => {
      await withJs.page.goto(url);
      await expectNoAxeViolations(withJs.page);
    };
    // The payment-failed mail's link: the membership's form, by its anchor.
    await page.goto(`/account/memberships#payment-method-${id}`);
    const form = page.locator(`#payment-method-${id}`);
    await expect(form.getByRole("heading", { name: "Payment method" })).toBeVisible();
    await expect(form.getByText("Test mode")).toBeVisible();
    await expect(form.getByText("4242424242424242")).toBeVisible();
    await expect(form.getByText("4000000000000002")).toBeVisible();
    await axeAt(page.url());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    await form.getByLabel("Card number").fill("4111 1111 1111 1111");
    await form.getByRole("button", { name: "Update payment method" }).click();
    await expect(page.getByRole("alert")).toContainText("Use a test card");
    await axeAt(page.url());

    await page.locator(`#payment-method-${id}`).getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.locator(`#payment-method-${id}`).getByRole("button", { name: "Update payment method" }).click();
    await expect(page.getByRole("status")).toHaveText("Your new payment method is saved. It pays your next renewal.");
    await context.close();
    await withJs.context.close();
  });

  test("every account page, with its messages, has no axe violations at 320 px", async ({ browser }) => {
    const created = await gql(`mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`, {
      input: { email: "ta@schoolhouse.test", planId: MONTHLY },
    });
    expect(created.data.createSubscription!.errors).toEqual([]);
    const { context, page } = await memberBrowser(browser, "ta@schoolhouse.test");
    await page.goto("/courses/intro-to-sql");
    await page.locator("summary").click();
    await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
    await expectNoAxeViolations(page);
    for (const path of ["/account", "/account/memberships", "/account/payments", "/account/courses", "/account/apps", "/account/sessions"]) {
      await page.goto(path);
      await expect(page.getByRole("navigation", { name: "Your account" })).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await page.goto("/account?error=wrong_password");
    await expect(page.getByText("Your current password was not correct.")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/account/memberships");
    await page.getByRole("button", { name: /^Cancel .* at period end$/ }).click();
    await expect(page.getByText("will end at the end of the current period")).toBeVisible();
    await expectNoAxeViolations(page);
    await context.close();
  });
});

// Pause, Resume and Change plan as a member does them, with and without JavaScript, on a server of
// this describe's own: a production `next start` on a fresh Postgres database, because the member
// needs plans to change between and the demo content has one monthly plan (the rows are added behind
// the server's back). Production seeds random demo passwords on DATABASE_URL: the members used here
// get a known one (hashPassword on their User row), and the Admin API a key of the spec's own.
test.describe("/account memberships: pause, resume and change plan", () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the spec adds the plans to change between to its server's database");
  test.describe.configure({ timeout: 180_000 });
  const PLUS = "5c400000-0000-4000-8000-0003000000b1";
  const BASIC = "5c400000-0000-4000-8000-0003000000b2";
  const apiKey = `sh_e2eplans_${randomBytes(24).toString("hex")}`;
  const password = `e2e-${randomBytes(12).toString("base64url")}`;
  let database: SpecDatabase | undefined;
  let server: ProductionServer | undefined;
  let origin = "";

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    database = await createSpecDatabase({ adminUrl: adminUrl!, prefix: "sh_e2e_account_plans" });
    server = await startProductionServer({ port: await freePort(), databaseUrl: database.url, env: { DEMO_API_KEY: apiKey } });
    origin = server.origin;
    await onDatabase(async (db) => {
      for (const [id, slug, name, price, position] of [
        [PLUS, "monthly-plus", "Monthly Plus", "49.00", 7],
        [BASIC, "monthly-basic", "Monthly Basic", "19.00", 8],
      ]) {
        await db.query(
          `INSERT INTO "MembershipPlan" ("id", "schoolId", "slug", "name", "planType", "interval", "intervalCount", "price", "currency", "status", "position", "updatedAt")
           SELECT $1, "id", $2, $3, 'recurring', 'month', 1, $4, 'USD', 'published', $5, now() FROM "School" WHERE "subdomain" = 'demo'`,
          [id, slug, name, price, position],
        );
      }
      const { rowCount } = await db.query(`UPDATE "User" SET "passwordHash" = $1 WHERE "email" = ANY($2)`, [
        await hashPassword(password),
        ["student@schoolhouse.test", "multi@schoolhouse.test"],
      ]);
      expect(rowCount).toBe(2);
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  async function onDatabase<T>(run: (db: pg.Client) => Promise<T>): Promise<T> {
    const db = new pg.Client({ connectionString: database!.url });
    await db.connect();
    try {
      return await run(db);
    } finally {
      await db.end();
    }
  }

  async function admin<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${origin}/admin/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": apiKey },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  interface AdminSubscription {
    planId: string;
    state: string;
    isPaused: boolean;
    pausedAt: number | null;
    isCanceling: boolean;
    scheduledPlanId: string | null;
    payments: { billingReason: string | null; state: string; amount: string }[];
  }
  const subscription = async (id: string) =>
    (
      await admin<{ subscription: AdminSubscription }>(
        `query($id: String!) { subscription(id: $id) { planId state isPaused pausedAt isCanceling scheduledPlanId payments { billingReason state amount } } }`,
        { id },
      )
    ).subscription;
  const subscribe = async (email: string) => {
    const { createSubscription } = await admin<{ createSubscription: { errors: string[]; subscription: { id: string } | null } }>(
      `mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`,
      { input: { email, planId: MONTHLY, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" } },
    );
    expect(createSubscription.errors).toEqual([]);
    return createSubscription.subscription!.id;
  };
  /** The Admin API's errors for the same action (a refused one changes nothing there either). */
  const adminRefusal = async (mutation: "pauseSubscription" | "changeSubscriptionPlan", input: Record<string, string>) => {
    const type = mutation === "pauseSubscription" ? "AdminPauseSubscriptionInput" : "AdminChangeSubscriptionPlanInput";
    const data = await admin<Record<string, { errors: string[] }>>(`mutation($input: ${type}!) { ${mutation}(input: $input) { errors } }`, { input });
    return data[mutation]!.errors;
  };
  const eventCount = (id: string, type: string) =>
    onDatabase(async (db) => Number((await db.query(`SELECT count(*) AS n FROM "WebhookEvent" WHERE "subjectId" = $1 AND "type" = $2`, [id, type])).rows[0].n));
  const upgrades = (s: AdminSubscription) => s.payments.filter((p) => p.billingReason === "subscription_update").map((p) => p.state);

  /** A browser of the member's own at 320 px, signed in through the login page, on their memberships. */
  async function member(browser: Browser, email: string, javaScript: boolean): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: origin, viewport: { width: 320, height: 640 }, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    await page.goto("/login?callbackUrl=%2Faccount%2Fmemberships");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${origin}/account/memberships`);
    return { context, page };
  }

  // The page's own notice: Next's route announcer (with JavaScript) is a live region of its own.
  const done = (page: Page) => page.getByRole("main").getByRole("status");
  const refused = (page: Page) => page.getByRole("main").getByRole("alert");
  const fits = async (page: Page) => {
    const { width, wide } = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      wide: [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 320).map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? "").slice(0, 30)}"`),
    }));
    expect(width, `wider than 320 px: ${wide.join(", ")}`).toBeLessThanOrEqual(320);
  };
  const changePlan = async (page: Page, from: string, to: string) => {
    await page.getByLabel(`New plan for ${from}`).selectOption({ label: to });
    await page.getByRole("button", { name: "Change plan" }).click();
  };

  test("without JavaScript: each action, its state on the page and in the Admin API; stale forms refused with the Admin API's message", async ({ browser }) => {
    const id = await subscribe("student@schoolhouse.test");
    const { context, page } = await member(browser, "student@schoolhouse.test", false);
    // axe-core runs in the page: each address the no-JavaScript page reaches is checked again in a
    // browser with JavaScript, signed in as the same member (GET only: it changes nothing).
    const withJs = await member(browser, "student@schoolhouse.test", true);
    const check = async (p: Page) => {
      await fits(p);
      await withJs.page.goto(p.url());
      await expectNoAxeViolations(withJs.page);
    };
    // Other tabs of the same browser, opened now: their forms are what the member saw before acting.
    const staleTab = async () => {
      const tab = await context.newPage();
      await tab.goto("/account/memberships");
      return tab;
    };
    await expect(page.getByRole("heading", { name: "Monthly Membership" })).toBeVisible();
    await check(page);
    const beforePause = await staleTab();
    const pauseAgain = await staleTab();

    await page.getByRole("button", { name: "Pause Monthly Membership" }).click();
    await expect(done(page)).toHaveText("Your membership is paused: no charges and no access until you resume it.");
    await expect(page.getByText("Paused", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume Monthly Membership" })).toBeVisible();
    const paused = await subscription(id);
    expect(paused).toMatchObject({ isPaused: true, state: "active", planId: MONTHLY });
    await check(page);

    // A second Pause (the tab from before) finds the work done and says so: nothing changes.
    await pauseAgain.getByRole("button", { name: "Pause Monthly Membership" }).click();
    await expect(done(pauseAgain)).toHaveText("Your membership is paused: no charges and no access until you resume it.");
    expect((await subscription(id)).pausedAt).toBe(paused.pausedAt);
    expect(await eventCount(id, "subscription.paused")).toBe(1);

    // Change plan from the tab from before the pause: refused with the verb's message, nothing changed.
    await changePlan(beforePause, "Monthly Membership", "Monthly Plus, 49.00 USD");
    await expect(refused(beforePause)).toHaveText("Cannot change the plan of a paused subscription; resume it first");
    expect(await subscription(id)).toEqual(paused);
    expect(await adminRefusal("changeSubscriptionPlan", { id, planId: PLUS })).toEqual([await refused(beforePause).textContent()]);
    await check(beforePause);

    await page.getByRole("button", { name: "Resume Monthly Membership" }).click();
    await expect(done(page)).toHaveText("Your membership is resumed. Your period end moved by the time it was paused.");
    await expect(page.getByRole("button", { name: "Pause Monthly Membership" })).toBeVisible();
    expect(await subscription(id)).toMatchObject({ isPaused: false, pausedAt: null, state: "active" });
    await check(page);
    const beforeUpgrade = await staleTab();

    // An upgrade: now, with the prorated charge on the saved card.
    await changePlan(page, "Monthly Membership", "Monthly Plus, 49.00 USD");
    await expect(done(page)).toHaveText("Your plan is changed. Any prorated charge is listed under Payments.");
    await expect(page.getByRole("heading", { name: "Monthly Plus" })).toBeVisible();
    await expect(page.getByText("49.00 USD, recurring")).toBeVisible();
    const upgraded = await subscription(id);
    expect(upgraded).toMatchObject({ planId: PLUS, scheduledPlanId: null });
    expect(upgrades(upgraded)).toEqual(["succeeded"]);
    await check(page);

    // The plan the member now has, from the tab from before the upgrade: refused, nothing charged.
    await changePlan(beforeUpgrade, "Monthly Membership", "Monthly Plus, 49.00 USD");
    await expect(refused(beforeUpgrade)).toHaveText("Subscription is already on this plan");
    expect(await subscription(id)).toEqual(upgraded);
    expect(await adminRefusal("changeSubscriptionPlan", { id, planId: PLUS })).toEqual([await refused(beforeUpgrade).textContent()]);
    await check(beforeUpgrade);

    // A downgrade: scheduled for the period end; choosing the current plan again withdraws it.
    await changePlan(page, "Monthly Plus", "Monthly Basic, 19.00 USD");
    await expect(done(page)).toHaveText("Your plan changes at the end of the current period, when the new price is charged.");
    await expect(page.getByText("Scheduled change", { exact: true })).toBeVisible();
    await expect(page.getByText(/^Monthly Basic from /)).toBeVisible();
    expect(await subscription(id)).toMatchObject({ planId: PLUS, scheduledPlanId: BASIC });
    await check(page);
    await changePlan(page, "Monthly Plus", "Monthly Plus, 49.00 USD (keep)");
    await expect(done(page)).toHaveText("Your plan stays as it is: the scheduled change is withdrawn.");
    await expect(page.getByText("Scheduled change", { exact: true })).toHaveCount(0);
    expect(await subscription(id)).toMatchObject({ planId: PLUS, scheduledPlanId: null });
    await check(page);

    // Pause from a tab opened before the member cancelled at period end: the verb's refusal.
    const beforeCancel = await staleTab();
    await page.getByRole("button", { name: "Cancel Monthly Plus at period end" }).click();
    await expect(done(page)).toContainText("will end at the end of the current period");
    const canceling = await subscription(id);
    expect(canceling).toMatchObject({ isCanceling: true, isPaused: false });
    await beforeCancel.getByRole("button", { name: "Pause Monthly Plus" }).click();
    await expect(refused(beforeCancel)).toHaveText("Cannot pause a subscription that is pending cancellation");
    expect(await subscription(id)).toEqual(canceling);
    expect(await adminRefusal("pauseSubscription", { id })).toEqual([await refused(beforeCancel).textContent()]);
    await check(beforeCancel);
    await context.close();
    await withJs.context.close();
  });

  test("with JavaScript: pause, resume and change plan; another member's subscription id is a 404 that changes nothing", async ({ browser }) => {
    const id = await subscribe("multi@schoolhouse.test");
    const other = await subscribe("reviewer@schoolhouse.test");
    const { context, page } = await member(browser, "multi@schoolhouse.test", true);
    const check = async () => {
      await fits(page);
      await expectNoAxeViolations(page);
    };
    await expect(page.getByRole("heading", { name: "Monthly Membership" })).toBeVisible();
    await check();

    await page.getByRole("button", { name: "Pause Monthly Membership" }).click();
    await expect(done(page)).toHaveText("Your membership is paused: no charges and no access until you resume it.");
    await expect(page.getByText("Paused", { exact: true })).toBeVisible();
    expect(await subscription(id)).toMatchObject({ isPaused: true, planId: MONTHLY });
    await check();

    await page.getByRole("button", { name: "Resume Monthly Membership" }).click();
    await expect(done(page)).toHaveText("Your membership is resumed. Your period end moved by the time it was paused.");
    expect(await subscription(id)).toMatchObject({ isPaused: false, planId: MONTHLY });
    await check();

    await changePlan(page, "Monthly Membership", "Monthly Plus, 49.00 USD");
    await expect(done(page)).toHaveText("Your plan is changed. Any prorated charge is listed under Payments.");
    await expect(page.getByRole("heading", { name: "Monthly Plus" })).toBeVisible();
    const upgraded = await subscription(id);
    expect(upgraded).toMatchObject({ planId: PLUS });
    expect(upgrades(upgraded)).toEqual(["succeeded"]);
    await check();

    await changePlan(page, "Monthly Plus", "Monthly Basic, 19.00 USD");
    await expect(done(page)).toHaveText("Your plan changes at the end of the current period, when the new price is charged.");
    await expect(page.getByText(/^Monthly Basic from /)).toBeVisible();
    expect(await subscription(id)).toMatchObject({ planId: PLUS, scheduledPlanId: BASIC });
    await check();

    // Someone else's subscription id in the member's own form (a tampered page): 404, nothing changed.
    const before = await subscription(other);
    for (const [action, button] of [
      ["pause", "Pause Monthly Plus"],
      ["change-plan", "Change plan"],
    ] as const) {
      await page.goto("/account/memberships");
      await page.locator(`form[action="/api/account/${action}"] input[name="subscription"]`).evaluate((input, value) => ((input as HTMLInputElement).value = value), other);
      const answer = page.waitForResponse((r) => r.url().endsWith(`/api/account/${action}`));
      await page.getByRole("button", { name: button }).click();
      expect((await answer).status(), action).toBe(404);
      await expect(page.getByRole("alert")).toHaveText("There is nothing of yours with that id on this account. Nothing was changed.");
      await check();
    }
    expect(await subscription(other)).toEqual(before);
    expect(await subscription(id)).toMatchObject({ planId: PLUS, scheduledPlanId: BASIC, isPaused: false });
    await context.close();
  });
});
