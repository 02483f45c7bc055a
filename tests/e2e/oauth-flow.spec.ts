import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";

const VERIFIER = "e2e-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
const REDIRECT = "http://127.0.0.1:49152/callback";

function authorizePath(extra: Record<string, string> = {}) {
  return `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: "demo-public-app",
    redirect_uri: REDIRECT,
    scope: "openid profile email courses:read",
    state: "e2e-state",
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    ...extra,
  })}`;
}

// The whole flow with JavaScript turned off: every page is a server-rendered form.
test("school picker, login and consent land on the redirect URI with a code (no client JavaScript)", async ({ browser, baseURL, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.route("http://127.0.0.1:49152/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "client callback" }));

  await page.goto(authorizePath());
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill("multi@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL(/\/oauth\/select-school\?/);
  await expect(page.getByRole("heading", { name: "Choose a school" })).toBeVisible();
  await expect(page.getByLabel("Schoolhouse Demo Academy")).toBeVisible();
  await page.getByLabel("Acme Corp Training").check();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: "Allow Demo Public App to access your account?" })).toBeVisible();
  await expect(page.getByText("127.0.0.1:49152")).toBeVisible();
  await expect(page.getByText("Acme Corp Training")).toBeVisible();
  await expect(page.getByText("See your email address")).toBeVisible();
  await expect(page.getByText("See the school's courses and your enrollments")).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49152\/callback\?/);
  const callback = new URL(page.url());
  expect(callback.searchParams.get("state")).toBe("e2e-state");
  expect(callback.searchParams.get("iss")).toBe(baseURL);
  const code = callback.searchParams.get("code")!;
  expect(code).toBeTruthy();

  const token = await request.post("/api/oauth/token", {
    form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: "demo-public-app", code_verifier: VERIFIER },
  });
  expect(token.status()).toBe(200);
  const body = await token.json();
  expect(body.school_subdomain).toBe("acme-training");
  const userinfo = await request.get("/api/oauth/userinfo", { headers: { authorization: `Bearer ${body.access_token}` } });
  expect((await userinfo.json()).email).toBe("multi@schoolhouse.test");
  await context.close();
});

test("deny sends access_denied back to the client", async ({ page }) => {
  await page.route("http://127.0.0.1:49152/**", (route) => route.fulfill({ status: 200, body: "client callback" }));
  await page.goto(authorizePath({ scope: "openid", school_id: "5c400000-0000-4000-8000-000100000001" }));
  await page.getByLabel("Email").fill("teacher@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49152\/callback\?/);
  expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
});

test("an unknown client shows an error page and does not redirect", async ({ page }) => {
  const res = await page.goto(authorizePath({ client_id: "no-such-client" }));
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Unknown application" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/oauth/authorize");
});
