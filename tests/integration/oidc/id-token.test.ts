// ID tokens and OpenID Connect discovery through oauth4webapi's OpenID Connect functions, a strict
// standards client: discovery at /.well-known/openid-configuration, the code flow with PKCE and a
// nonce, the ID token's signature checked against jwks_uri, its claims against UserInfo, refresh.
import { createHash } from "node:crypto";
import { decodeProtectedHeader } from "jose";
import * as oauth from "oauth4webapi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { browseAuthorization, sessionUserId, signIn } from "../oauth/helpers";

// The bare host (127.0.0.1:<port>): its issuer is exactly app.url, as a client discovers it.
const app = appForSuite();
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: "demo-public-app" };
const redirectUri = "http://127.0.0.1:53690/callback";
const defaultClient = client;
const defaultRedirectUri = redirectUri;
let as: oauth.AuthorizationServer;
let cookie: string;

beforeAll(async () => {
  cookie = await signIn(app, "multi@schoolhouse.test");
  const issuer = new URL(app.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});
afterEach(() => setNow(null));

/** The member's session row behind the cookie (its id is the sid, its createdAt the auth_time). */
async function sessionOf(c: string) {
  const userId = await sessionUserId(app, c);
  return db().memberSession.findFirstOrThrow({ where: { userId, revokedAt: null }, orderBy: { createdAt: "desc" } });
}

async function codeFlow(
  options: { scope?: string; nonce?: string; extra?: Record<string, string>; schoolId?: string; member?: string; client?: oauth.Client; redirectUri?: string } = {},
) {
  const client = options.client ?? defaultClient;
  const redirectUri = options.redirectUri ?? defaultRedirectUri;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: options.scope ?? "openid profile email offline_access",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...options.extra,
  }).toString();
  const callback = await browseAuthorization(app, options.member ?? cookie, url, options.schoolId ?? DEMO_IDS.school);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  return oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
}

describe("OpenID Connect discovery", () => {
  it("/.well-known/openid-configuration has every field Discovery 1.0 requires and is the RFC 8414 document", async () => {
    const res = await app.fetch("/.well-known/openid-configuration");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    const o = app.url;
    expect(doc).toMatchObject({
      issuer: o,
      authorization_endpoint: `${o}/oauth/authorize`,
      token_endpoint: `${o}/api/oauth/token`,
      userinfo_endpoint: `${o}/api/oauth/userinfo`,
      jwks_uri: `${o}/api/oauth/jwks`,
      end_session_endpoint: `${o}/oauth/end-session`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256", "ES256"],
      scopes_supported: expect.arrayContaining(["openid", "profile", "email", "offline_access"]),
      claims_supported: expect.arrayContaining(["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "azp", "at_hash", "sid", "amr", "name", "email", "org_id", "roles"]),
      request_uri_parameter_supported: false,
    });
    const rfc8414 = await (await app.fetch("/.well-known/oauth-authorization-server")).json();
    expect(rfc8414).toEqual(doc);
    // Another school's origin: its own issuer, the same keys.
    const acme = (await (await app.fetch("/.well-known/openid-configuration", { headers: { host: "acme-training.localhost" } })).json()) as { issuer: string; jwks_uri: string };
    expect(acme.issuer).toBe("http://acme-training.localhost");
    expect(acme.jwks_uri).toBe("http://acme-training.localhost/api/oauth/jwks");
    expect((await app.fetch("/.well-known/openid-configuration", { headers: { host: "nope.localhost" } })).status).toBe(404);
  });

  it("jwks_uri serves the public keys only, with use, alg and kid, cacheable", async () => {
    const res = await app.fetch("/api/oauth/jwks");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=600");
    const { keys } = (await res.json()) as { keys: Record<string, string>[] };
    expect(keys.map((k) => k.alg).sort()).toEqual(["ES256", "RS256"]);
    for (const k of keys) {
      expect(k).toMatchObject({ use: "sig", kid: expect.any(String) });
      for (const privateMember of ["d", "p", "q", "dp", "dq", "qi"]) expect(k).not.toHaveProperty(privateMember);
    }
  });
});

describe("ID tokens on the authorization code grant", () => {
  it("code + PKCE + nonce: a signed RS256 ID token with every claim, the same sub as UserInfo", async () => {
    const nonce = oauth.generateRandomNonce();
    const response = await codeFlow({ nonce });
    // oauth4webapi checks iss, aud, azp, exp, iat and the nonce; then the signature against jwks_uri.
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(as, response, insecure);
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    const session = await sessionOf(cookie);
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: "RS256", kid: expect.any(String) });
    expect(claims).toMatchObject({
      iss: app.url,
      sub: DEMO_IDS.users.multiRole,
      aud: "demo-public-app",
      azp: "demo-public-app",
      nonce,
      auth_time: Math.floor(session.createdAt.getTime() / 1000),
      sid: session.id,
      amr: ["pwd"],
      name: "Rin Takeda",
      email: "multi@schoolhouse.test",
      email_verified: expect.any(Boolean),
      org_id: DEMO_IDS.school,
      roles: expect.any(Array),
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.at_hash).toBe(createHash("sha256").update(tokens.access_token).digest().subarray(0, 16).toString("base64url"));
    const userinfo = await oauth.processUserInfoResponse(as, client, claims.sub, await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
    for (const name of ["sub", "name", "email", "email_verified", "org_id", "roles"]) expect(claims[name]).toEqual(userinfo[name]);
  });

  it("a wrong expected nonce is refused by the client; no nonce sent means none in the token", async () => {
    await expect(
      oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ nonce: "the-nonce-we-sent" }), { expectedNonce: "another-nonce" }),
    ).rejects.toThrow(/nonce/);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow(), { expectedNonce: oauth.expectNoNonce, requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(tokens)).not.toHaveProperty("nonce");
  });

  it("the nonce is echoed exactly, however unusual; an overlong one is refused at authorize", async () => {
    const nonce = "ünïcödé nonce with spaces & symbols ?=/+";
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ nonce }), { expectedNonce: nonce });
    expect(oauth.getValidatedIdTokenClaims(tokens)!.nonce).toBe(nonce);
    await expect(codeFlow({ nonce: "n".repeat(513) })).rejects.toMatchObject({ error: "invalid_request", error_description: "nonce must be 1 to 512 characters" });
  });

  it("scopes decide the claims: without profile/email none of theirs; without openid no ID token", async () => {
    const bare = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ scope: "openid" }), { requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(bare)!;
    expect(claims).not.toHaveProperty("name");
    expect(claims).not.toHaveProperty("email");
    expect(claims).toHaveProperty("org_id", DEMO_IDS.school);
    const plain = (await (await codeFlow({ scope: "courses:read" })).json()) as Record<string, unknown>;
    expect(plain.access_token).toBeTruthy();
    expect(plain).not.toHaveProperty("id_token");
  });

  it("refresh gives a new ID token: same iss, sub, aud, azp, auth_time and sid; new iat and at_hash; no nonce", async () => {
    const nonce = oauth.generateRandomNonce();
    setNow(now());
    const first = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ nonce }), { expectedNonce: nonce });
    const original = oauth.getValidatedIdTokenClaims(first)!;
    advance(5_000);
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, response);
    await oauth.validateApplicationLevelSignature(as, response, insecure);
    const claims = oauth.getValidatedIdTokenClaims(refreshed)!;
    for (const name of ["iss", "sub", "aud", "azp", "auth_time", "sid"]) expect(claims[name]).toEqual(original[name]);
    expect(claims.iat).toBe(original.iat + 5);
    expect(claims).not.toHaveProperty("nonce");
    expect(claims.at_hash).toBe(createHash("sha256").update(refreshed.access_token).digest().subarray(0, 16).toString("base64url"));
    // A refresh narrowed to a scope without openid gets no ID token.
    const narrowed = (await (
      await app.fetch("/api/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token!, client_id: client.client_id, scope: "profile" }),
      })
    ).json()) as Record<string, unknown>;
    expect(narrowed.access_token).toBeTruthy();
    expect(narrowed).not.toHaveProperty("id_token");
  });
});

describe("id_token_signed_response_alg (ES256 on request, RS256 by default)", () => {
  const zapierRedirect = "https://zapier.com/dashboard/auth/oauth/return/SchoolhouseCLIAPI/";
  const register = (body: unknown) =>
    app.fetch("/api/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("a client registered over HTTP with ES256 gets ES256 ID tokens (code and refresh) that oauth4webapi validates against jwks_uri", async () => {
    const res = await register({ client_name: "Zapier", id_token_signed_response_alg: "ES256" });
    expect(res.status).toBe(201);
    const registered = (await res.json()) as { client_id: string; id_token_signed_response_alg: string };
    expect(registered.id_token_signed_response_alg).toBe("ES256");
    // The library is told what the client registered, so it refuses any other alg.
    const es: oauth.Client = { client_id: registered.client_id, id_token_signed_response_alg: "ES256" };
    const nonce = oauth.generateRandomNonce();
    const response = await codeFlow({ client: es, redirectUri: zapierRedirect, nonce });
    const tokens = await oauth.processAuthorizationCodeResponse(as, es, response, { expectedNonce: nonce, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(as, response, insecure);
    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe("ES256");
    const { keys } = (await (await app.fetch("/api/oauth/jwks")).json()) as { keys: { kid: string; alg: string; kty: string }[] };
    expect(keys.find((k) => k.kid === header.kid)).toMatchObject({ alg: "ES256", kty: "EC" });
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ aud: registered.client_id, azp: registered.client_id, nonce, iss: app.url });
    // at_hash is SHA-256 based for ES256 too.
    expect(claims.at_hash).toBe(createHash("sha256").update(tokens.access_token).digest().subarray(0, 16).toString("base64url"));

    const refreshResponse = await oauth.refreshTokenGrantRequest(as, es, oauth.None(), tokens.refresh_token!, insecure);
    const refreshed = await oauth.processRefreshTokenResponse(as, es, refreshResponse);
    await oauth.validateApplicationLevelSignature(as, refreshResponse, insecure);
    expect(decodeProtectedHeader(refreshed.id_token!).alg).toBe("ES256");

    // A client that expects RS256 (the default) refuses this ID token: the alg really is per client.
    const rsExpecting: oauth.Client = { client_id: registered.client_id, id_token_signed_response_alg: "RS256" };
    await expect(oauth.processAuthorizationCodeResponse(as, rsExpecting, await codeFlow({ client: es, redirectUri: zapierRedirect }))).rejects.toThrow(/alg/);
  });

  it("the default stays RS256; the same configuration with another alg is another client", async () => {
    const plain = (await (await register({ client_name: "Zapier" })).json()) as { client_id: string; id_token_signed_response_alg: string };
    expect(plain.id_token_signed_response_alg).toBe("RS256");
    const es = (await (await register({ client_name: "Zapier", id_token_signed_response_alg: "ES256" })).json()) as { client_id: string };
    expect(es.client_id).not.toBe(plain.client_id);
    const rs: oauth.Client = { client_id: plain.client_id };
    const tokens = await oauth.processAuthorizationCodeResponse(as, rs, await codeFlow({ client: rs, redirectUri: zapierRedirect }), { requireIdToken: true });
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe("RS256");
  });

  it.each(["none", "HS256", "RS512", "", 256])("id_token_signed_response_alg %j → 400 invalid_client_metadata (RFC 7591 §3.2.2)", async (alg) => {
    const res = await register({ client_name: "Zapier", id_token_signed_response_alg: alg });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_client_metadata", error_description: "id_token_signed_response_alg must be one of RS256, ES256" });
  });
});

describe("max_age and prompt", () => {
  it("max_age older than the sign-in sends the member to sign in again; prompt=none then answers login_required", async () => {
    const member = await signIn(app, "student@schoolhouse.test");
    const fresh = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ member, extra: { max_age: "300" } }), { maxAge: 300 });
    const signedInAt = oauth.getValidatedIdTokenClaims(fresh)!.auth_time!;

    setNow(now().getTime() + 301_000);
    const url = new URL(as.authorization_endpoint!);
    const base = { client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", scope: "openid", state: "s", code_challenge: "x".repeat(43), code_challenge_method: "S256", max_age: "300" };
    url.search = new URLSearchParams(base).toString();
    const stale = await app.fetch(url.pathname + url.search, { headers: { cookie: member } });
    expect(stale.status).toBe(303);
    expect(stale.headers.get("location")).toMatch(/^\/login\?callbackUrl=/);
    url.search = new URLSearchParams({ ...base, prompt: "none" }).toString();
    const silent = new URL((await app.fetch(url.pathname + url.search, { headers: { cookie: member } })).headers.get("location")!);
    expect(silent.searchParams.get("error")).toBe("login_required");

    // Signed in again: the flow goes on (max_age=0 too) and auth_time is the new sign-in.
    const again = await signIn(app, "student@schoolhouse.test");
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await codeFlow({ member: again, extra: { max_age: "300" } }), { maxAge: 300 });
    expect(oauth.getValidatedIdTokenClaims(tokens)!.auth_time).toBeGreaterThan(signedInAt + 300);
    url.search = new URLSearchParams({ ...base, max_age: "-1" }).toString();
    expect(new URL((await app.fetch(url.pathname + url.search, { headers: { cookie: again } })).headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });
});
