import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

// RP-Initiated Logout 1.0 in Chromium (issue 25): with a hint for the current session the member is
// signed out at once; without one they confirm on a school-branded page (no JavaScript, CSRF form).
const VERIFIER = "e2e-logout-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
const REDIRECT = "http://127.0.0.1/callback";
const AFTER = "http://127.0.0.1/signed-out";

async function signInAndGetIdToken(page: Page, request: import("@playwright/test").APIRequestContext): Promise<string> {
  await page.context().route((url) => url.hostname === "127.0.0.1", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "client page" }));
  await page.goto(
    `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: "demo-public-app", redirect_uri: REDIRECT, scope: "openid profile", state: "st", code_challenge: CHALLENGE, code_challenge_method: "S256", nonce: "n-1" })}`,
  );
  await page.getByLabel("Email").fill("student@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  // The bare host (baseURL) asks which school first.
  await page.waitForURL(/\/oauth\/(select-school|consent)\?|127\.0\.0\.1\/callback/);
  if (/\/oauth\/select-school/.test(page.url())) await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(/\/oauth\/consent\?|127\.0\.0\.1\/callback/);
  if (/\/oauth\/consent/.test(page.url())) await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1\/callback\?/);
  const code = new URL(page.url()).searchParams.get("code")!;
  const token = await request.post("/api/oauth/token", { form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: "demo-public-app", code_verifier: VERIFIER } });
  expect(token.status()).toBe(200);
  return (await token.json()).id_token as string;
}

async function expectSignedOut(page: Page) {
  await page.goto("/login/signout");
  await expect(page.getByText("You are not signed in.")).toBeVisible();
}

test("with an id_token_hint for this session: signed out at once, back to the app with state", async ({ browser, baseURL, request }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const idToken = await signInAndGetIdToken(page, request);
  // The app sends the member there as a relying party does: a top-level navigation from its own page.
  await page.evaluate((url) => window.location.assign(url), `${baseURL}/oauth/end-session?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: AFTER, state: "bye-1" })}`);
  await expect(page).toHaveURL(`${AFTER}?state=bye-1`);
  await expectSignedOut(page);
  await context.close();
});

// axe needs script in the page; the form itself is plain HTML (no script on the page: checked below).
test("without a hint: a branded confirmation page (320 px, no script, axe clean) that signs out", async ({ browser, baseURL, request }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await signInAndGetIdToken(page, request);
  await page.goto(`/oauth/end-session?${new URLSearchParams({ client_id: "demo-public-app", post_logout_redirect_uri: AFTER, state: "bye-2" })}`);
  await expect(page).toHaveURL(/\/oauth\/logout\?/);
  // baseURL is the bare platform host: no school's branding there.
  await expect(page.getByRole("heading", { name: /^Sign out of .+\?$/ })).toBeVisible();
  await expect(page.getByText("Demo Public App", { exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(await page.locator("form[action='/oauth/end-session'][method='post'] input[name='csrf_token']").count()).toBe(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${AFTER}?state=bye-2`);
  await expectSignedOut(page);
  await context.close();
});

test("a wrong post_logout_redirect_uri is an error page, not a redirect", async ({ page }) => {
  const res = await page.goto(`/oauth/end-session?${new URLSearchParams({ client_id: "demo-public-app", post_logout_redirect_uri: "https://evil.example/" })}`);
  expect(res!.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Sign-out request refused" })).toBeVisible();
  await expect(page.getByText("post_logout_redirect_uri is not registered for Demo Public App")).toBeVisible();
});
