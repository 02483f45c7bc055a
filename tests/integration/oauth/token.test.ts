import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { hashSecret } from "@/lib/credentials/secret";
import { REFRESH_REPLAY_GRACE_SECONDS } from "@/lib/oauth/grants/refresh-token";
import { REFRESH_TOKEN_TTL_SECONDS } from "@/lib/oauth/tokens";
import { appForSuite } from "../../helpers/app-for-suite";
import { VERIFIER, exchangeCode, form, getCode, signIn, tokensFor, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;
const CB = "http://localhost:3000/oauth/callback";
const CONF_CB = "https://reports.schoolhouse.test/oauth/callback";

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => setNow(null));

const token = (values: Record<string, string | undefined>) => app.fetch("/api/oauth/token", form(values));
const refresh = (refresh_token: string, extra: Record<string, string> = {}) =>
  token({ grant_type: "refresh_token", refresh_token, client_id: "demo-public-app", ...extra });
const userinfo = (accessToken: string) => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${accessToken}` } });

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe("string");
  expect(body.error_description.length).toBeGreaterThan(0);
}

describe("authorization_code grant", () => {
  it("returns every field of the token response, no-store, with CORS", async () => {
    setNow(new Date("2026-05-01T08:00:00Z"));
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB, scope: "openid profile email offline_access courses:read" });
    const res = await exchangeCode(app, code);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as TokenBody;
    // id_token: openid was granted (OpenID Connect Core §3.1.3.3; tests/integration/oidc/id-token.test.ts).
    expect(Object.keys(body).sort()).toEqual(["access_token", "created_at", "expires_in", "id_token", "refresh_token", "school_id", "school_subdomain", "scope", "token_type"]);
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 7200,
      scope: "courses:read email offline_access openid profile",
      created_at: Date.parse("2026-05-01T08:00:00Z") / 1000,
      school_id: DEMO_IDS.school,
      school_subdomain: "demo",
    });
    // Opaque random strings, stored only as hashes.
    expect(body.access_token).toMatch(/^sha_[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_token).toMatch(/^shr_[A-Za-z0-9_-]{43}$/);
    const stored = await db().oAuthAccessToken.findMany({ select: { tokenHash: true } });
    expect(stored.some((r) => r.tokenHash === body.access_token)).toBe(false);
  });

  it("a confidential client authenticates with client_secret_post", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB });
    const base = { grant_type: "authorization_code", code, redirect_uri: CONF_CB, client_id: "demo-confidential-app", code_verifier: VERIFIER };
    await expectError(await token(base), 401, "invalid_client");
    await expectError(await token({ ...base, client_secret: "wrong" }), 401, "invalid_client");
    const ok = await token({ ...base, client_secret: "demo-confidential-secret-dev-only" });
    expect(ok.status).toBe(200);
  });

  it("a replayed code → invalid_grant and the tokens issued from it are revoked", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    const first = (await (await exchangeCode(app, code)).json()) as TokenBody;
    expect((await userinfo(first.access_token)).status).toBe(200);
    await expectError(await exchangeCode(app, code), 400, "invalid_grant");
    expect((await userinfo(first.access_token)).status).toBe(401);
    await expectError(await refresh(first.refresh_token), 400, "invalid_grant");
  });

  it("two concurrent exchanges of one code: exactly one wins", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    const results = await Promise.all([exchangeCode(app, code), exchangeCode(app, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("a code expires after 60 seconds", async () => {
    setNow(new Date("2026-05-01T09:00:00Z"));
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    advance(61_000);
    await expectError(await exchangeCode(app, code), 400, "invalid_grant");
  });

  it.each([
    ["wrong code_verifier", { code_verifier: "x".repeat(43) }, 400, "invalid_grant"],
    ["redirect_uri different from the authorization request", { redirect_uri: "http://localhost:3000/oauth/callback?x=1" }, 400, "invalid_grant"],
    ["code of another client", { client_id: "schoolhouse-mcp" }, 400, "invalid_grant"],
    ["unknown code", { code: "shc_nope" }, 400, "invalid_grant"],
    ["code_verifier too short (42)", { code_verifier: "a".repeat(42) }, 400, "invalid_request"],
    ["code_verifier too long (129)", { code_verifier: "a".repeat(129) }, 400, "invalid_request"],
    ["code_verifier with invalid characters", { code_verifier: "a".repeat(42) + "!" }, 400, "invalid_request"],
    ["missing code_verifier", { code_verifier: undefined }, 400, "invalid_request"],
    ["missing code", { code: undefined }, 400, "invalid_request"],
    ["missing redirect_uri", { redirect_uri: undefined }, 400, "invalid_request"],
    ["missing client_id", { client_id: undefined }, 400, "invalid_request"],
    ["unknown client_id", { client_id: "nope" }, 401, "invalid_client"],
    ["public client sending a secret", { client_secret: "x" }, 401, "invalid_client"],
    ["resource different from the authorization request", { resource: "https://other.example/" }, 400, "invalid_target"],
  ])("%s → %s %s", async (_name, extra, status, error) => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    await expectError(await exchangeCode(app, (extra as { code?: string }).code ?? code, extra as Record<string, string | undefined>), status, error);
  });

  it("a code stays usable after a failed attempt with a wrong verifier", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    await expectError(await exchangeCode(app, code, { code_verifier: "y".repeat(43) }), 400, "invalid_grant");
    expect((await exchangeCode(app, code)).status).toBe(200);
  });
});

describe("request format and grant types", () => {
  it.each([
    ["unsupported grant_type", { grant_type: "client_credentials", client_id: "demo-public-app" }, 400, "unsupported_grant_type"],
    ["password grant", { grant_type: "password", client_id: "demo-public-app" }, 400, "unsupported_grant_type"],
    ["missing grant_type", { client_id: "demo-public-app" }, 400, "invalid_request"],
  ])("%s → %s", async (_name, values, status, error) => {
    await expectError(await token(values), status, error);
  });

  it("a client not allowed the grant type → unauthorized_client", async () => {
    await db().oAuthClient.create({ data: { clientId: "code-only", name: "Code only", redirectUris: [CB], grantTypes: ["authorization_code"], scope: "openid" } });
    await expectError(await token({ grant_type: "refresh_token", refresh_token: "shr_x", client_id: "code-only" }), 400, "unauthorized_client");
  });

  it("a JSON body → invalid_request", async () => {
    const res = await app.fetch("/api/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "authorization_code" }) });
    await expectError(res, 400, "invalid_request");
  });

  it("a repeated parameter → invalid_request", async () => {
    const res = await app.fetch("/api/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code&client_id=demo-public-app",
    });
    await expectError(res, 400, "invalid_request");
  });

  it("HTTP Basic client authentication (client_secret_basic, RFC 6749 §2.3.1) works; a wrong secret is invalid_client; both methods at once are refused", async () => {
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB });
    const body = { grant_type: "authorization_code", code, redirect_uri: CONF_CB, code_verifier: VERIFIER };
    const headers = (authorization: string) => ({ "content-type": "application/x-www-form-urlencoded", authorization });
    await expectError(await app.fetch("/api/oauth/token", { ...form(body), headers: headers(basic("demo-confidential-app", "wrong")) }), 401, "invalid_client");
    await expectError(
      await app.fetch("/api/oauth/token", { ...form({ ...body, client_secret: "demo-confidential-secret-dev-only" }), headers: headers(basic("demo-confidential-app", "demo-confidential-secret-dev-only")) }),
      400,
      "invalid_request",
    );
    const ok = await app.fetch("/api/oauth/token", { ...form(body), headers: headers(basic("demo-confidential-app", "demo-confidential-secret-dev-only")) });
    expect(ok.status).toBe(200);
  });

  it("answers CORS preflight", async () => {
    const res = await app.fetch("/api/oauth/token", { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
  });
});

describe("refresh_token grant with rotation", () => {
  it("returns a new refresh token and revokes the old one; the old access token keeps working until it expires", async () => {
    const first = await tokensFor(app, cookie);
    const res = await refresh(first.refresh_token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const second = (await res.json()) as TokenBody;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second).toMatchObject({ token_type: "Bearer", expires_in: 7200, scope: first.scope, school_id: DEMO_IDS.school, school_subdomain: "demo" });
    await expectError(await refresh(first.refresh_token), 400, "invalid_grant");
    expect((await refresh(second.refresh_token)).status).toBe(200);
  });

  it(`a replay within ${REFRESH_REPLAY_GRACE_SECONDS}s is invalid_grant but the new tokens survive`, async () => {
    setNow(new Date("2026-05-02T10:00:00Z"));
    const first = await tokensFor(app, cookie);
    const second = (await (await refresh(first.refresh_token)).json()) as TokenBody;
    advance((REFRESH_REPLAY_GRACE_SECONDS - 1) * 1000);
    await expectError(await refresh(first.refresh_token), 400, "invalid_grant");
    expect((await userinfo(second.access_token)).status).toBe(200);
    expect((await refresh(second.refresh_token)).status).toBe(200);
  });

  it(`a replay later than ${REFRESH_REPLAY_GRACE_SECONDS}s is theft: the whole grant is revoked`, async () => {
    setNow(new Date("2026-05-02T11:00:00Z"));
    const first = await tokensFor(app, cookie);
    const second = (await (await refresh(first.refresh_token)).json()) as TokenBody;
    advance((REFRESH_REPLAY_GRACE_SECONDS + 1) * 1000);
    await expectError(await refresh(first.refresh_token), 400, "invalid_grant");
    expect((await userinfo(second.access_token)).status).toBe(401);
    expect((await userinfo(first.access_token)).status).toBe(401);
    await expectError(await refresh(second.refresh_token), 400, "invalid_grant");
  });

  it("two concurrent refreshes with one token: exactly one wins", async () => {
    const first = await tokensFor(app, cookie);
    const results = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token), refresh(first.refresh_token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it.each([
    ["unknown refresh token", "shr_unknown", {}, 400, "invalid_grant"],
    ["refresh token of another client", null, { client_id: "schoolhouse-mcp" }, 400, "invalid_grant"],
    ["scope widening", null, { scope: "openid profile email students:read" }, 400, "invalid_scope"],
  ])("%s → %s", async (_name, tokenValue, extra, status, error) => {
    const t = await tokensFor(app, cookie);
    await expectError(await refresh(tokenValue ?? t.refresh_token, extra as Record<string, string>), status, error);
  });

  it("missing refresh_token → invalid_request", async () => {
    await expectError(await token({ grant_type: "refresh_token", client_id: "demo-public-app" }), 400, "invalid_request");
  });

  it("stores the rotation: old token rotated, new tokens hashed in the same grant; the access token narrowed, the refresh token keeping the grant's scope", async () => {
    const first = await tokensFor(app, cookie);
    setNow(new Date("2026-11-21T12:00:00Z"));
    const second = (await (await refresh(first.refresh_token, { scope: "openid" })).json()) as TokenBody;
    const old = await db().oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(first.refresh_token) }, include: { grant: true } });
    expect(old.rotatedAt).toEqual(new Date("2026-11-21T12:00:00Z"));
    const access = await db().oAuthAccessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(second.access_token) } });
    const fresh = await db().oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(second.refresh_token) } });
    expect(access).toMatchObject({ grantId: old.grantId, clientId: "demo-public-app", scope: "openid", audience: old.grant.resource, revokedAt: null });
    expect(access.expiresAt).toEqual(new Date(Date.parse("2026-11-21T12:00:00Z") + 7200 * 1000));
    expect(fresh).toMatchObject({ grantId: old.grantId, clientId: "demo-public-app", scope: old.scope, rotatedAt: null, revokedAt: null });
    expect(fresh.expiresAt).toEqual(new Date(Date.parse("2026-11-21T12:00:00Z") + REFRESH_TOKEN_TTL_SECONDS * 1000));
    expect(second.created_at).toBe(Date.parse("2026-11-21T12:00:00Z") / 1000);
  });

  it("scope may narrow the access token; the next refresh may ask for the whole grant again (RFC 6749 §6)", async () => {
    const t = await tokensFor(app, cookie);
    const narrowed = (await (await refresh(t.refresh_token, { scope: "openid" })).json()) as TokenBody;
    expect(narrowed.scope).toBe("openid");
    const whole = await refresh(narrowed.refresh_token, { scope: t.scope });
    expect(whole.status).toBe(200);
    const wholeBody = (await whole.json()) as TokenBody;
    expect(wholeBody.scope).toBe(t.scope);
    const again = (await (await refresh(wholeBody.refresh_token)).json()) as TokenBody;
    expect(again.scope).toBe(t.scope);
  });

  it("a confidential client must authenticate to refresh", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB });
    const secret = "demo-confidential-secret-dev-only";
    const t = (await (
      await token({ grant_type: "authorization_code", code, redirect_uri: CONF_CB, client_id: "demo-confidential-app", code_verifier: VERIFIER, client_secret: secret })
    ).json()) as TokenBody;
    await expectError(await token({ grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: "demo-confidential-app" }), 401, "invalid_client");
    expect((await token({ grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: "demo-confidential-app", client_secret: secret })).status).toBe(200);
  });

  it("an expired access token is refused at userinfo, and refreshing gets a fresh one", async () => {
    setNow(new Date("2026-05-03T10:00:00Z"));
    const t = await tokensFor(app, cookie);
    advance(7200 * 1000);
    expect((await userinfo(t.access_token)).status).toBe(401);
    const fresh = (await (await refresh(t.refresh_token)).json()) as TokenBody;
    expect((await userinfo(fresh.access_token)).status).toBe(200);
  });
});
