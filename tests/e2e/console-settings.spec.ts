import { expect, test, type Browser } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { expectFits, expectNoAxeViolations, staffBrowser as signedIn } from "./console-helpers";

// The staff console's API keys, Webhooks and Apps pages (/manage/keys, /manage/webhooks,
// /manage/apps) in Chromium at 390 px: owner only (manager, teacher and student get 403), every
// action through its form, secrets shown once, axe-core with no violations; forms of each page
// without JavaScript too, and a post from another site refused with 403.

/** The settings pages' sign-in: the browser waits on the page asked for (the owner's pages open straight away). */
const staffBrowser = (browser: Browser, email: string, path = "/manage", opts: { javaScript?: boolean } = {}) => signedIn(browser, email, path, { ...opts, landsOnPath: true });

const plans = (key: string) =>
  fetch(`${baseURL}/admin/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": key }, body: JSON.stringify({ query: "{ membershipPlans { id } }" }) });

const PAGES = ["/manage/keys", "/manage/webhooks", "/manage/apps"];

test.describe("access", () => {
  for (const email of ["manager@schoolhouse.test", "teacher@schoolhouse.test", "student@schoolhouse.test"]) {
    test(`${email} gets 403 on the keys, webhooks and apps pages, and no nav entry for them`, async ({ browser }) => {
      const { context, page } = await staffBrowser(browser, email, "/");
      for (const path of PAGES) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(403);
      }
      if (email !== "student@schoolhouse.test") {
        await page.goto("/manage");
        const nav = page.getByRole("navigation", { name: "Staff console" });
        for (const label of ["API keys", "Webhooks", "Apps"]) await expect(nav.getByRole("link", { name: label })).toHaveCount(0);
      }
      await context.close();
    });
  }

  test("the owner has the three pages in the console's navigation; another school's ids are 404", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test");
    const nav = page.getByRole("navigation", { name: "Staff console" });
    for (const label of ["API keys", "Webhooks", "Apps"]) await expect(nav.getByRole("link", { name: label })).toBeVisible();
    expect((await page.goto("/manage/webhooks/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
    expect((await page.goto("/manage/webhooks/not-a-uuid"))?.status()).toBe(404);
    expect((await page.goto("/manage/apps/bm8tc3VjaC1jbGllbnQ"))?.status()).toBe(404);
    // A NUL in the path is the edge guard's 400, before any page.
    expect((await page.goto("/manage/apps/%00%00"))?.status()).toBe(400);
    await context.close();
  });
});

test.describe("API keys", () => {
  test("create with permissions and expiry, shown once; last use; rotate; revoke", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/keys");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
    await expectNoAxeViolations(page);
    await expectFits(page);

    const form = page.getByRole("form", { name: "Create an API key" });
    await form.getByLabel("Name").fill("E2E reporting");
    await form.getByLabel("Read membership plans").check();
    await form.getByLabel("Expires on (optional, YYYY-MM-DD)").fill("2030-01-31");
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("status")).toContainText('API key "E2E reporting" created');
    const key = (await page.getByTestId("secret-once").textContent())!.trim();
    expect(key).toMatch(/^sh_[a-z0-9]+_/);
    await expectNoAxeViolations(page);
    await expectFits(page);
    expect((await plans(key)).status).toBe(200);

    await page.reload();
    await expect(page.getByTestId("secret-once")).toHaveCount(0);
    const row = page.getByRole("row", { name: /E2E reporting/ });
    await expect(row).toContainText("Read membership plans");
    await expect(row).toContainText("31 Jan 2030");
    await expect(row).not.toContainText("Never");

    await row.getByRole("button", { name: "Rotate E2E reporting" }).click();
    await expect(page.getByRole("status")).toContainText("rotated");
    const rotated = (await page.getByTestId("secret-once").textContent())!.trim();
    expect(rotated).not.toBe(key);
    expect((await plans(key)).status).toBe(401);
    expect((await plans(rotated)).status).toBe(200);

    await page.getByRole("row", { name: /E2E reporting.*Active/ }).getByRole("button", { name: "Revoke E2E reporting" }).click();
    // The revocation's own notice (the rotation's says "the old key is revoked" too, so waiting for
    // "is revoked" alone could pass before the revoke had run).
    await expect(page.getByRole("status")).toContainText(`(prefix ${rotated.split("_")[1]}) is revoked: it is refused from now on`);
    // Refused on the very next request: the console's action and the proxy that answers the Admin
    // API are separate bundles of one process, and they share the key cache's state
    // (lib/db/credential-cache.ts; docs/security.md, "Admin API keys").
    expect((await plans(rotated)).status).toBe(401);
    await expect(page.getByRole("row", { name: /E2E reporting/ }).filter({ hasText: "Active" })).toHaveCount(0);
    await context.close();
  });

  // Without JavaScript the form posts itself (multipart, with the action's hidden $ACTION_ fields);
  // the page's Referrer-Policy (same-origin, next.config.mjs) lets Chromium send its Origin, which
  // Next's action check and the console's need (under no-referrer it sent `Origin: null`: a 500).
  test("refusals are clear and change nothing; the form works without JavaScript", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/keys", { javaScript: false });
    expect((await page.reload())?.headers()["referrer-policy"]).toBe("same-origin");
    const form = page.getByRole("form", { name: "Create an API key" });
    await form.getByLabel("Name").fill("No JS key");
    await form.getByLabel("Expires on (optional, YYYY-MM-DD)").fill("2001-01-01");
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("The expiry must be in the future Nothing was changed.");
    await expect(page.getByTestId("secret-once")).toHaveCount(0);
    await expect(page.getByRole("row", { name: /No JS key/ })).toHaveCount(0);
    await page.getByRole("form", { name: "Create an API key" }).getByLabel("Name").fill("No JS key");
    await page.getByRole("form", { name: "Create an API key" }).getByRole("button", { name: "Create key" }).click();
    await expect(page.getByTestId("secret-once")).toContainText("sh_");
    await expect(page.getByRole("row", { name: /No JS key/ })).toHaveCount(1);
    // Revoke, still without JavaScript.
    await page.getByRole("row", { name: /No JS key/ }).getByRole("button", { name: "Revoke No JS key" }).click();
    await expect(page.getByRole("status")).toContainText("is revoked");
    await context.close();
  });

  test("a post from another site is refused with 403 and changes nothing (no 5xx)", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/keys", { javaScript: false });
    const form = page.getByRole("form", { name: "Create an API key" });
    const fields: Record<string, string> = { name: "Cross-site key" };
    for (const input of await form.locator("input[type=hidden]").all()) fields[(await input.getAttribute("name"))!] = (await input.getAttribute("value")) ?? "";
    // The browser's own post, replayed by another site: the session cookie goes with it.
    const cross = await context.request.post("/manage/keys", { multipart: fields, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
    expect(cross.status()).toBe(403);
    expect(await cross.text()).toContain("This form did not come from this site. Nothing was changed.");
    const sandboxed = await context.request.post("/manage/keys", { multipart: fields, headers: { origin: "null", "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
    expect(sandboxed.status()).toBe(403);
    await page.reload();
    await expect(page.getByRole("row", { name: /Cross-site key/ })).toHaveCount(0);
    // The same post from this site with `Origin: null` (a page under a no-referrer policy) is taken.
    const same = await context.request.post("/manage/keys", { multipart: fields, headers: { origin: "null", "sec-fetch-site": "same-origin" }, maxRedirects: 0 });
    expect(same.status()).toBe(303);
    expect(same.headers()["location"]).toMatch(/\/manage\/keys\?notice=/);
    await page.goto(same.headers()["location"]!);
    await expect(page.getByRole("status")).toContainText('API key "Cross-site key" created');
    await context.close();
  });
});

test.describe("webhooks", () => {
  test("create (secret once), test event, deliveries log, replay, edit events, disable, enable, rotate, delete", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/webhooks");
    await expectNoAxeViolations(page);
    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    await form.getByLabel("URL (https)").fill("https://hooks.invalid/e2e");
    await form.getByLabel("Description (optional)").fill("E2E receiver");
    await form.getByLabel("subscription.created").check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("status")).toContainText("Endpoint https://hooks.invalid/e2e added");
    await expect(page.getByTestId("secret-once")).toContainText("whsec_");
    await expectNoAxeViolations(page);
    await expectFits(page);
    await page.reload();
    await expect(page.getByTestId("secret-once")).toHaveCount(0);

    await page.getByRole("link", { name: "https://hooks.invalid/e2e" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhook endpoint");
    await expectNoAxeViolations(page);
    await expectFits(page);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("status")).toContainText("Test event queued");
    await expect(page.getByRole("heading", { level: 3, name: /webhook\.ping/ })).toBeVisible();
    // The worker tries it (the host does not resolve): the attempt is logged with why it failed.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("cell", { name: "no answer" }).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("cell", { name: /ms$/ }).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Replay webhook.ping" }).click();
    await expect(page.getByRole("status")).toContainText("Event queued again");

    const edit = page.getByRole("form", { name: "Edit the endpoint" });
    await edit.getByLabel("subscription.canceled").check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toHaveText("Endpoint saved.");
    await expect(page.getByRole("form", { name: "Edit the endpoint" }).getByLabel("subscription.canceled")).toBeChecked();

    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByRole("status")).toContainText("Endpoint disabled");
    await expect(page.getByText("Disabled: Disabled by the school")).toBeVisible();
    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page.getByRole("status")).toContainText("Endpoint enabled");

    await page.getByRole("button", { name: "Rotate signing secret" }).click();
    await expect(page.getByRole("status")).toContainText("Signing secret rotated");
    await expect(page.getByTestId("secret-once")).toContainText("whsec_");

    const del = page.getByRole("form", { name: "Delete the endpoint" });
    await del.getByLabel(/Delete this endpoint/).check();
    await del.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/manage\/webhooks\?notice=/);
    await expect(page.getByRole("status")).toContainText("Endpoint deleted");
    await expect(page.getByRole("link", { name: "https://hooks.invalid/e2e" })).toHaveCount(0);
    await context.close();
  });

  // With JavaScript, Next adds its route announcer (role=alert, in a shadow root) to the page: the
  // notice is the alert in <main>.
  for (const javaScript of [false, true]) {
    test(`a refused endpoint says why and creates nothing (JavaScript ${javaScript ? "on" : "off"})`, async ({ browser }) => {
      const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/webhooks", { javaScript });
      const form = page.getByRole("form", { name: "Add a webhook endpoint" });
      await form.getByLabel("URL (https)").fill("https://127.0.0.1/in");
      await form.getByLabel("subscription.created").check();
      await form.getByRole("button", { name: "Add endpoint" }).click();
      await expect(page.getByRole("main").getByRole("alert")).toContainText("Nothing was changed.");
      await expect(page.getByTestId("secret-once")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "https://127.0.0.1/in" })).toHaveCount(0);
      await context.close();
    });
  }

  test("without JavaScript: add an endpoint (secret once), send it a test event, delete it", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/webhooks", { javaScript: false });
    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    await form.getByLabel("URL (https)").fill("https://hooks.invalid/no-js");
    await form.getByLabel("subscription.created").check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("status")).toContainText("Endpoint https://hooks.invalid/no-js added");
    await expect(page.getByTestId("secret-once")).toContainText("whsec_");
    await page.getByRole("link", { name: "https://hooks.invalid/no-js" }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("status")).toContainText("Test event queued");
    const del = page.getByRole("form", { name: "Delete the endpoint" });
    await del.getByLabel(/Delete this endpoint/).check();
    await del.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByRole("status")).toContainText("Endpoint deleted");
    await context.close();
  });
});

test.describe("apps", () => {
  test("register a confidential app (secret once), its page, rotate, revoke; the metadata-document switch", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/apps");
    await expectNoAxeViolations(page);
    await expectFits(page);
    await expect(page.getByRole("cell", { name: /Demo Public App/ }).or(page.getByText("No apps yet."))).toBeVisible();

    const form = page.getByRole("form", { name: "Register a confidential app" });
    await form.getByRole("textbox", { name: "Name" }).fill("E2E reports");
    await form.getByLabel(/Redirect URIs/).fill("https://reports.example/cb\nhttps://reports.example/cb2");
    await form.locator('input[name="scopes"][value="openid"]').check();
    await form.getByRole("button", { name: "Register app" }).click();
    await expect(page.getByRole("status")).toContainText('App "E2E reports" created');
    await expect(page.getByTestId("secret-once")).toContainText("ocs_");
    await expectNoAxeViolations(page);
    await page.reload();
    await expect(page.getByTestId("secret-once")).toHaveCount(0);

    await page.getByRole("link", { name: "E2E reports" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E reports");
    await expect(page.getByText("https://reports.example/cb, https://reports.example/cb2")).toBeVisible();
    await expect(page.getByText("No member has this app connected.")).toBeVisible();
    await expectNoAxeViolations(page);
    await expectFits(page);
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByRole("status")).toContainText("the old one works for 24 hours more");
    await expect(page.getByTestId("secret-once")).toContainText("ocs_");
    await page.getByRole("button", { name: "Revoke this app" }).click();
    await expect(page.getByRole("status")).toContainText("Revoked");
    await expect(page.getByText(/^Revoked /)).toBeVisible();

    await page.goto("/manage/apps");
    await page.getByRole("button", { name: "Turn them off (ends their connections)" }).click();
    await expect(page.getByRole("status")).toContainText("are turned off");
    // (Discovery on localhost is the bare platform host's; the school host's answer is tested in tests/integration/console/app-verbs.test.ts.)
    await page.getByRole("button", { name: "Allow them again" }).click();
    await expect(page.getByRole("status")).toContainText("may connect again");
    await context.close();
  });

  test("without JavaScript: register an app (secret once) and revoke it", async ({ browser }) => {
    const { context, page } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage/apps", { javaScript: false });
    const form = page.getByRole("form", { name: "Register a confidential app" });
    await form.getByRole("textbox", { name: "Name" }).fill("No JS app");
    await form.getByLabel(/Redirect URIs/).fill("https://nojs.example/cb");
    await form.locator('input[name="scopes"][value="openid"]').check();
    await form.getByRole("button", { name: "Register app" }).click();
    await expect(page.getByRole("status")).toContainText('App "No JS app" created');
    await expect(page.getByTestId("secret-once")).toContainText("ocs_");
    await page.getByRole("link", { name: "No JS app" }).click();
    await page.getByRole("button", { name: "Revoke this app" }).click();
    await expect(page.getByRole("status")).toContainText("Revoked");
    await context.close();
  });
});
