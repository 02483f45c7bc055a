import { encode } from "@auth/core/jwt";
import { expect, test } from "@playwright/test";
import { CHALLENGE } from "../integration/oauth/helpers";
import { DEMO_IDS } from "../../lib/startup/seed/demo-data";
import { DEV_AUTH_SECRET } from "../../lib/env";

// Issue 12, attack 1: a default production start used to sign sessions with the secret published
// in lib/env.ts, so anyone could forge the owner's session. Now `npm start` generates its own.
test("a session cookie forged with the published dev secret is no session on a default start", async ({ request, baseURL }) => {
  const forged = await encode({
    token: { sub: DEMO_IDS.users.owner, email: "owner@schoolhouse.test", name: "Olivia Park" },
    secret: DEV_AUTH_SECRET,
    salt: "authjs.session-token",
  });
  const cookie = `authjs.session-token=${forged}`;
  const authorize = `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: "demo-public-app",
    redirect_uri: "http://127.0.0.1/callback",
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    scope: "openid",
    state: "s",
  })}`;
  const res = await request.get(authorize, { headers: { cookie }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
  expect(new URL(res.headers()["location"]!, baseURL).pathname).toBe("/login");

  // The enterprise-training gate does not take it either.
  const gated = await request.get(`${baseURL}/courses/security-awareness`, {
    headers: { cookie, host: `acme-training.localhost:${new URL(baseURL!).port}` },
    maxRedirects: 0,
  });
  expect(gated.status()).toBe(307);
});

// Issue 12, attack 5: the gate's redirect took its scheme from a client-sent X-Forwarded-Proto.
test("the gate's login redirect ignores X-Forwarded-Proto without TRUST_PROXY", async ({ request, baseURL }) => {
  const host = `acme-training.localhost:${new URL(baseURL!).port}`;
  const res = await request.get(`${baseURL}/courses/security-awareness`, {
    headers: { host, "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(307);
  expect(res.headers()["location"]).toBe(`http://${host}/login?callbackUrl=${encodeURIComponent("/courses/security-awareness")}`);
});
