// "Sign in with <school>" as a standard OpenID Connect relying party does it: openid-client 6 with
// default OIDC discovery (/.well-known/openid-configuration), the code flow with PKCE, state and a
// nonce, the member signing in and consenting in real Chromium, the ID token validated by the
// library (claims, and its signature against jwks_uri), UserInfo with the subject check, refresh.
import { expect, test } from "@playwright/test";
import { signInAndAllow } from "./oauth-helpers";
import * as client from "openid-client";

const REDIRECT = "http://127.0.0.1:49160/callback";
const DEMO_SCHOOL = "5c400000-0000-4000-8000-000100000001";

test("openid-client 6: discovery, code + PKCE + nonce through a real login, ID token, UserInfo, refresh", async ({ browser, baseURL }) => {
  const config = await client.discovery(new URL(baseURL!), "demo-public-app", undefined, client.None(), {
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
  await page.route("http://127.0.0.1:49160/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "relying party callback" }));
  await page.goto(url.href);
  await signInAndAllow(page, "student@schoolhouse.test");
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49160\/callback\?/);
  const callback = new URL(page.url());
  await context.close();

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
});
