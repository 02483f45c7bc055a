// "Sign in with <school>" as a standard OpenID Connect relying party does it: openid-client 6 with
// default OIDC discovery (/.well-known/openid-configuration), the code flow with PKCE, state and a
// nonce, the member signing in and consenting in real Chromium, the ID token validated by the
// library (claims, and its signature against jwks_uri), UserInfo with the subject check, refresh,
// and RP-Initiated Logout through the library's end-session URL. Once on the suite's server
// (embedded PGlite), once on a server this spec starts on a fresh Postgres database.
import { randomBytes } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import * as client from "openid-client";
import { createSpecDatabase, freePort, startProductionServer, type ProductionServer, type SpecDatabase } from "./next-server";
import { signInAndAllow } from "./oauth-helpers";

const REDIRECT = "http://127.0.0.1:49160/callback";
// Registered for demo-public-app by the seed (exact match).
const AFTER_LOGOUT = "http://127.0.0.1/signed-out";
const DEMO_SCHOOL = "5c400000-0000-4000-8000-000100000001";

async function openIdClientFlow(browser: Browser, baseURL: string, password = "schoolhouse-demo") {
  const config = await client.discovery(new URL(baseURL), "demo-public-app", undefined, client.None(), {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });
  expect(config.serverMetadata().issuer).toBe(baseURL);
  expect(config.serverMetadata().jwks_uri).toBe(`${baseURL}/api/oauth/jwks`);

  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: "openid profile email offline_access",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    nonce,
    state,
    school_id: DEMO_SCHOOL,
  });

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // The relying party's own pages (callback, signed-out) on 127.0.0.1.
  await context.route((u) => u.hostname === "127.0.0.1", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "relying party page" }));
  await page.goto(url.href);
  await signInAndAllow(page, "student@schoolhouse.test", password);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49160\/callback\?/);
  const callback = new URL(page.url());

  // The library checks state, iss, PKCE, the ID token's iss/aud/azp/exp/iat/nonce, and (non-repudiation) its signature.
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
  const claims = tokens.claims()!;
  expect(claims).toMatchObject({ iss: baseURL, aud: "demo-public-app", azp: "demo-public-app", nonce, email: "student@schoolhouse.test", org_id: DEMO_SCHOOL, amr: ["pwd"] });
  expect(typeof claims.auth_time).toBe("number");
  expect(typeof claims.sid).toBe("string");

  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  expect(userinfo.sub).toBe(claims.sub);
  expect(userinfo.email).toBe(claims.email);

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  const again = refreshed.claims()!;
  expect(refreshed.id_token).not.toBe(tokens.id_token);
  expect(again).toMatchObject({ iss: baseURL, sub: claims.sub, aud: "demo-public-app", auth_time: claims.auth_time, sid: claims.sid });
  expect(again.nonce).toBeUndefined();

  // RP-Initiated Logout: the library builds the end_session_endpoint URL; the app sends the member
  // there from its own page. A hint for this session signs them out at once and returns with state.
  const logout = client.buildEndSessionUrl(config, { id_token_hint: refreshed.id_token!, post_logout_redirect_uri: AFTER_LOGOUT, state: "bye-oc" });
  expect(logout.href.startsWith(`${baseURL}/oauth/end-session?`)).toBe(true);
  await page.evaluate((href) => window.location.assign(href), logout.href);
  await expect(page).toHaveURL(`${AFTER_LOGOUT}?state=bye-oc`);
  await page.goto(`${baseURL}/login/signout`);
  await expect(page.getByText("You are not signed in.")).toBeVisible();
  await context.close();
}

test("openid-client 6 on the embedded database: discovery, code + PKCE + nonce through a real login, ID token, UserInfo, refresh, logout", async ({ browser, baseURL }) => {
  await openIdClientFlow(browser, baseURL!);
});

test.describe("openid-client 6 on Postgres", () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the server this spec starts gets a fresh Postgres database");
  test.describe.configure({ timeout: 240_000 });
  let port = 0;
  // Production mode refuses the README's demo password on DATABASE_URL: a fresh one.
  const password = `e2e-${randomBytes(9).toString("base64url")}`;
  let database: SpecDatabase | undefined;
  let server: ProductionServer | undefined;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // A free port of the system's choosing: E2E_PORT is the suite's server, and neighbouring ports
    // may be other runs' on a shared machine.
    port = await freePort();
    database = await createSpecDatabase({ adminUrl: adminUrl!, prefix: "sh_e2e_oidc" });
    server = await startProductionServer({ port, databaseUrl: database.url, env: { DIRECT_DATABASE_URL: database.url, DEMO_PASSWORD: password } });
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("the same flow: discovery, login in Chromium, ID token, UserInfo, refresh, logout", async ({ browser }) => {
    test.setTimeout(120_000);
    await openIdClientFlow(browser, `http://localhost:${port}`, password);
  });
});
