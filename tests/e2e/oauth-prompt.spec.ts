// Issue 12: `prompt` in a real browser (OpenID Connect Core §3.1.2.1). Integration tests cover every
// rule through HTTP (tests/integration/oauth/prompt.test.ts); this walks the pages.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";

const VERIFIER = "e2e-prompt-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
// A real loopback client (any port matches the registered loopback redirect URI, RFC 8252 §7.3):
// page.route does not see a redirect that answers a page.goto, and prompt=none redirects at once.
let client: Server;
let REDIRECT = "";
let CALLBACK = /^$/;
test.beforeAll(async () => {
  client = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("client callback"));
  await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
  const { port } = client.address() as AddressInfo;
  REDIRECT = `http://127.0.0.1:${port}/callback`;
  CALLBACK = new RegExp(`^http://127\\.0\\.0\\.1:${port}/callback\\?`);
});
test.afterAll(() => new Promise<void>((resolve) => client.close(() => resolve())));
const DEMO_SCHOOL = "5c400000-0000-4000-8000-000100000001";

function authorizePath(extra: Record<string, string> = {}) {
  return `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: "demo-public-app",
    redirect_uri: REDIRECT,
    scope: "openid profile",
    state: "e2e-prompt",
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    school_id: DEMO_SCHOOL,
    ...extra,
  })}`;
}

async function signInOnPage(page: Page) {
  await page.getByLabel("Email").fill("ta@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
}

const callbackParams = (page: Page) => new URL(page.url()).searchParams;

test("prompt=login asks a signed-in member to sign in again, then goes on; prompt=consent shows consent again; prompt=none shows no page", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();

  // prompt=none without a session: straight back to the client with login_required.
  await page.goto(authorizePath({ prompt: "none" }));
  await expect(page).toHaveURL(CALLBACK);
  expect(callbackParams(page).get("error")).toBe("login_required");

  // A first authorization: sign in, allow. The consent is now remembered.
  await page.goto(authorizePath());
  await expect(page).toHaveURL(/\/login\?/);
  await signInOnPage(page);
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(CALLBACK);
  expect(callbackParams(page).get("code")).toBeTruthy();

  // Remembered: prompt=none gets the code without a page.
  await page.goto(authorizePath({ prompt: "none" }));
  await expect(page).toHaveURL(CALLBACK);
  expect(callbackParams(page).get("code")).toBeTruthy();

  // prompt=login: the login page despite the session, without a "Continue" shortcut.
  await page.goto(authorizePath({ prompt: "login" }));
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText("It asks you to sign in again")).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue" })).toHaveCount(0);
  await signInOnPage(page);
  // Signed in again: the flow goes on (consent remembered, so straight back with a code).
  await expect(page).toHaveURL(CALLBACK);
  expect(callbackParams(page).get("code")).toBeTruthy();
  expect(callbackParams(page).get("state")).toBe("e2e-prompt");

  // prompt=consent: the consent page although this consent is remembered.
  await page.goto(authorizePath({ prompt: "consent" }));
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: "Allow Demo Public App to access your account?" })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(CALLBACK);
  expect(callbackParams(page).get("code")).toBeTruthy();
  await context.close();
});
