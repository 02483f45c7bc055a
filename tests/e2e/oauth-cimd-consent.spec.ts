// The consent page for a Client ID Metadata Document client (CIMD is on by default): before the
// scopes, it says the app is not registered with the school and names the document's host, the one
// fact about the app its publisher cannot fake. In Chromium, at 320 px, axe clean, the form working.
//
// The document must be served from somewhere this server fetches. It is a loopback HTTP server
// here, which only the test-only switch OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS admits, and env
// validation refuses that switch unless NODE_ENV=test (lib/env.test.ts). So this spec starts its own
// `next start` of the build with NODE_ENV=test (an explicit NODE_ENV is kept by `next start`; it
// only defaults an unset one to production) on the embedded database (docs/decisions.md).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { freePort, startNextServer, type NextServer } from "./next-server";

const DEMO_SCHOOL = "5c400000-0000-4000-8000-000100000001";
const REDIRECT = "http://127.0.0.1:49162/callback";
let server: NextServer | undefined;
let documents: Server | undefined;
let base = "";
let clientId = "";
let documentHost = "";

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  documents = createServer((req, res) => {
    if (req.url !== "/apps/agent.json") {
      res.writeHead(404).end();
      return;
    }
    // A publisher may call its app anything, the school's own name included.
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: clientId, client_name: "Demo School Official App", redirect_uris: [REDIRECT] }));
  });
  await new Promise<void>((r) => documents!.listen(0, "127.0.0.1", r));
  documentHost = `127.0.0.1:${(documents.address() as AddressInfo).port}`;
  clientId = `http://${documentHost}/apps/agent.json`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = startNextServer(port, {
    NODE_ENV: "test",
    PGLITE_DATA_DIR: "memory://",
    DATABASE_URL: "",
    PLATFORM_DOMAIN: "localhost",
    DEFAULT_SCHOOL: "demo",
    REDIS_URL: "",
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    OAUTH_CIMD_ALLOWED_HOSTS: "127.0.0.1",
    OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: "1",
  });
  await server.healthy();
});

test.afterAll(async () => {
  await server?.stop();
  documents?.closeAllConnections();
  await new Promise((r) => documents?.close(r));
});

test("the consent page names the document's host before the scopes; Allow sends the code to the document's redirect URI", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await context.route((u) => u.hostname === "127.0.0.1" && u.port === "49162", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "agent callback" }));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: "openid profile",
    state: "cimd-st",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    school_id: DEMO_SCHOOL,
  });
  await page.goto(`/oauth/authorize?${query}`);
  await page.getByLabel("Email").fill("student@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/consent\?/);

  await expect(page.getByRole("heading", { name: "Allow Demo School Official App to access your account?" })).toBeVisible();
  const notice = page.locator("p.notice");
  await expect(notice).toHaveText(new RegExp(`^This app is not registered with .+\\. It is published by ${documentHost.replace(/\./g, "\\.")}: allow it only if you trust ${documentHost.replace(/\./g, "\\.")}\\.$`));
  await expect(notice.locator("strong.client-host")).toHaveText(documentHost);
  // The notice comes before the list of what the app may do.
  const [noticeTop, scopesTop] = await Promise.all([notice.boundingBox(), page.locator("ul").first().boundingBox()]);
  expect(noticeTop!.y).toBeLessThan(scopesTop!.y);
  await expect(page.getByText(clientId)).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
  // The document's URL is one long word: it must wrap, not widen the page.
  const wide = await page.evaluate(() => [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > 320).map((e) => `${e.tagName}.${e.className}`));
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `wider than 320 px: ${wide.join(", ")}`).toBeLessThanOrEqual(320);

  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49162\/callback\?/);
  const callback = new URL(page.url());
  expect(callback.searchParams.get("state")).toBe("cimd-st");
  expect(callback.searchParams.get("code")).toBeTruthy();
  await context.close();
});

test("a registered client's consent page has no such notice", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: "demo-public-app",
    redirect_uri: "http://127.0.0.1:49162/callback",
    scope: "openid",
    state: "reg-st",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    school_id: DEMO_SCHOOL,
  });
  await page.goto(`/oauth/authorize?${query}`);
  await page.getByLabel("Email").fill("multi@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  await expect(page.locator("p.notice")).toHaveCount(0);
  await context.close();
});
