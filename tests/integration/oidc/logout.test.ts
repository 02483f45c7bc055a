import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { resetEnvCache } from "@/lib/env";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { revokeMemberGrant } from "@/lib/oauth/member-grants/revoke-member-grant";
import { drainBackchannelLogouts } from "@/lib/oidc/deliver-backchannel-logouts";
import { endMemberSessions } from "@/lib/oidc/end-member-sessions";
import { appForSuite } from "../../helpers/app-for-suite";
import { csrf, form, getCode, mergeCookies, sessionUserId, signIn, VERIFIER } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// Issue 25, item 4: RP-Initiated Logout 1.0 at /oauth/end-session and Back-Channel Logout 1.0,
// delivered to a real receiver on loopback (the test switch the webhook tests use).
const ISSUER = "http://demo.localhost";
const CB = "http://127.0.0.1/callback";
const AFTER = "http://127.0.0.1/signed-out";
let receiver: Server;
let received: { token: string; at: number }[] = [];
let replyStatus = 200;
let clientId: string;
let otherClientId: string;

const app = appForSuite({
  host: "demo.localhost",
  prepare: async () => {
    process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = "1";
    resetEnvCache();
  },
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (replyStatus === 200) received.push({ token: new URLSearchParams(body).get("logout_token") ?? "", at: Date.now() });
      res.writeHead(replyStatus, { "cache-control": "no-store" });
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const uri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel`;
  const base = { db: db(), school: "demo", redirectUris: [CB], scope: "openid profile email", confidential: false };
  clientId = (await createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, name: "Community Forum", postLogoutRedirectUris: [AFTER], backchannelLogoutUri: uri })).client.clientId;
  otherClientId = (await createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, name: "Other App", postLogoutRedirectUris: ["http://127.0.0.1/other"] })).client.clientId;
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});
afterEach(() => {
  setNow(null);
  replyStatus = 200;
});

/** A member signed in, and an ID token of the forum for that session. */
async function signedInWithIdToken(email = "student@schoolhouse.test", client = clientId): Promise<{ cookie: string; idToken: string; sessionId: string }> {
  const cookie = await signIn(app, email);
  const { code } = await getCode(app, cookie, { client_id: client, redirect_uri: CB, scope: "openid profile" });
  const res = await app.fetch("/api/oauth/token", form({ grant_type: "authorization_code", code, redirect_uri: CB, client_id: client, code_verifier: VERIFIER }));
  const body = (await res.json()) as { id_token?: string };
  if (!body.id_token) throw new Error(`no id_token: ${JSON.stringify(body)}`);
  const row = await db().memberSession.findFirstOrThrow({ where: { userId: await sessionUserId(app, cookie), revokedAt: null }, orderBy: { createdAt: "desc" } });
  return { cookie, idToken: body.id_token, sessionId: row.id };
}

const endSession = (params: Record<string, string>, cookie = "") => app.fetch(`/oauth/end-session?${new URLSearchParams(params)}`, { headers: cookie ? { cookie } : {} });
const sessionLive = async (id: string) => (await db().memberSession.findUniqueOrThrow({ where: { id } })).revokedAt === null;

async function waitForLogoutTokens(count: number): Promise<string[]> {
  for (let i = 0; i < 100 && received.length < count; i++) {
    await drainBackchannelLogouts();
    if (received.length < count) await new Promise((r) => setTimeout(r, 50));
  }
  expect(received.length).toBe(count);
  return received.map((r) => r.token);
}

async function verifyLogoutToken(token: string) {
  const jwks = (await (await app.fetch("/api/oauth/jwks")).json()) as JSONWebKeySet;
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: ISSUER, audience: clientId, typ: "logout+jwt" });
  expect(protectedHeader.kid).toBeTruthy();
  expect(payload.events).toEqual({ "http://schemas.openid.net/event/backchannel-logout": {} });
  expect(payload.nonce).toBeUndefined();
  expect(typeof payload.jti).toBe("string");
  expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
  return payload;
}

describe("RP-Initiated Logout (/oauth/end-session)", () => {
  it("is advertised in discovery with back-channel logout", async () => {
    const body = (await (await app.fetch("/.well-known/openid-configuration")).json()) as Record<string, unknown>;
    expect(body.end_session_endpoint).toBe(`${ISSUER}/oauth/end-session`);
    expect(body.backchannel_logout_supported).toBe(true);
    expect(body.backchannel_logout_session_supported).toBe(true);
  });

  it("a hint for this browser's session signs out at once, returns to the registered URI with state, and the app hears it back-channel", async () => {
    received = [];
    const { cookie, idToken, sessionId } = await signedInWithIdToken();
    const res = await endSession({ id_token_hint: idToken, post_logout_redirect_uri: AFTER, state: "s-1" }, cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${AFTER}?state=s-1`);
    expect(res.headers.getSetCookie().join("\n")).toMatch(/authjs\.session-token=;/);
    expect(await sessionLive(sessionId)).toBe(false);
    const [token] = await waitForLogoutTokens(1);
    const claims = await verifyLogoutToken(token!);
    expect(claims.sub).toBe(DEMO_IDS.users.student);
    expect(claims.sid).toBe(sessionId);
  });

  it("an expired hint is still accepted for logout (§2)", async () => {
    const { cookie, idToken, sessionId } = await signedInWithIdToken();
    setNow(new Date(now().getTime() + 3 * 3600_000));
    const res = await endSession({ id_token_hint: idToken, client_id: clientId, post_logout_redirect_uri: AFTER }, cookie);
    expect(res.headers.get("location")).toBe(AFTER);
    expect(await sessionLive(sessionId)).toBe(false);
  });

  it("without a hint the member confirms on a page; the form is CSRF-checked; 'stay' keeps the session", async () => {
    const { cookie, sessionId } = await signedInWithIdToken();
    const res = await endSession({ client_id: clientId, post_logout_redirect_uri: AFTER, state: "s-2" }, cookie);
    expect(res.status).toBe(303);
    const confirm = new URL(res.headers.get("location")!, "http://x");
    expect(confirm.pathname).toBe("/oauth/logout");
    expect(await sessionLive(sessionId)).toBe(true);
    const c = await csrf(app, cookie);
    const post = (fields: Record<string, string>, cookieHeader = c.cookie) =>
      app.fetch("/oauth/end-session", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader }, body: new URLSearchParams({ ...Object.fromEntries(confirm.searchParams), ...fields }) });
    const forged = await post({ decision: "logout", csrf_token: "forged" });
    expect(forged.status).toBe(403);
    expect(await sessionLive(sessionId)).toBe(true);
    const stay = await post({ decision: "stay", csrf_token: c.token });
    expect(stay.headers.get("location")).toBe(`${AFTER}?state=s-2`);
    expect(await sessionLive(sessionId)).toBe(true);
    const out = await post({ decision: "logout", csrf_token: c.token });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe(`${AFTER}?state=s-2`);
    expect(await sessionLive(sessionId)).toBe(false);
  });

  it("a stale hint (another session's) asks instead of signing out", async () => {
    const first = await signedInWithIdToken();
    const second = await signedInWithIdToken();
    const res = await endSession({ id_token_hint: first.idToken }, second.cookie);
    expect(new URL(res.headers.get("location")!, "http://x").pathname).toBe("/oauth/logout");
    expect(await sessionLive(second.sessionId)).toBe(true);
  });

  it("signed out already: straight to the registered URI (or our signed-out page)", async () => {
    const { idToken } = await signedInWithIdToken();
    expect((await endSession({ id_token_hint: idToken, post_logout_redirect_uri: AFTER })).headers.get("location")).toBe(AFTER);
    expect((await endSession({})).headers.get("location")).toBe("/oauth/logout?signed_out=1");
  });

  it("refuses with a clear error page: bad hint, alg none, unknown kid, wrong or unanchored post_logout_redirect_uri, client_id not in aud", async () => {
    const { cookie, idToken, sessionId } = await signedInWithIdToken();
    const [h, p] = idToken.split(".");
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const cases: [Record<string, string>, RegExp][] = [
      [{ id_token_hint: "garbage" }, /id_token_hint is not valid/],
      [{ id_token_hint: `${b64({ alg: "none" })}.${p}.` }, /id_token_hint is not valid: alg/],
      [{ id_token_hint: `${b64({ ...decodeProtectedHeader(idToken), kid: "no-such-kid" })}.${p}.${idToken.split(".")[2]}` }, /id_token_hint is not valid: kid/],
      [{ id_token_hint: `${h}.${b64({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), sub: "someone-else" })}.${idToken.split(".")[2]}` }, /id_token_hint is not valid/],
      [{ id_token_hint: idToken, post_logout_redirect_uri: "https://evil.example/phish" }, /post_logout_redirect_uri is not registered for Community Forum/],
      [{ post_logout_redirect_uri: AFTER }, /post_logout_redirect_uri needs client_id or id_token_hint/],
      [{ id_token_hint: idToken, client_id: otherClientId }, /client_id is not an audience of id_token_hint/],
      [{ client_id: otherClientId, post_logout_redirect_uri: AFTER }, /not registered for Other App/],
      [{ client_id: "no-such-client" }, /client_id names no client/],
    ];
    for (const [params, message] of cases) {
      const res = await endSession(params, cookie);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toMatch(message);
    }
    const dup = await app.fetch(`/oauth/end-session?state=a&state=b`, { headers: { cookie } });
    expect(dup.status).toBe(400);
    expect(await sessionLive(sessionId)).toBe(true);
  });

  it("an id_token_hint from another school's address is refused", async () => {
    const { idToken, cookie } = await signedInWithIdToken();
    const res = await app.fetch(`/oauth/end-session?${new URLSearchParams({ id_token_hint: idToken })}`, { headers: { cookie, host: "acme-training.localhost" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/not issued by this school/);
  });
});

describe("Back-Channel Logout", () => {
  it("a member signing out through the site tells the apps that session signed in to", async () => {
    received = [];
    const { cookie, sessionId } = await signedInWithIdToken();
    const c = await csrf(app, cookie);
    const res = await app.fetch("/api/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
      body: new URLSearchParams({ csrfToken: c.token, callbackUrl: "/" }),
    });
    expect(res.status).toBe(302);
    expect(mergeCookies(c.cookie, res)).not.toMatch(/authjs\.session-token=/);
    const [token] = await waitForLogoutTokens(1);
    expect((await verifyLogoutToken(token!)).sid).toBe(sessionId);
  });

  it("revoking a member's grant tells the app; staff ending a member's sessions tells every app", async () => {
    received = [];
    // Only this test's grant is live (earlier tests' sign-ins left theirs).
    await db().oAuthGrant.updateMany({ where: { revokedAt: null }, data: { revokedAt: now() } });
    const a = await signedInWithIdToken();
    await revokeMemberGrant({ db: db(), schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student, clientId, now: now(), actor: TEST_ACTOR });
    const tokens = await waitForLogoutTokens(1);
    expect((await verifyLogoutToken(tokens[0]!)).sid).toBe(a.sessionId);
    received = [];
    const b = await signedInWithIdToken();
    const r = await endMemberSessions({ userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, origins: [ISSUER], now: now(), reason: "staff_disabled" });
    expect(r.sessions).toBeGreaterThanOrEqual(1);
    expect(await sessionLive(b.sessionId)).toBe(false);
    const [t] = await waitForLogoutTokens(1);
    expect((await verifyLogoutToken(t!)).sub).toBe(DEMO_IDS.users.student);
  });

  it("a receiver that fails is retried later, never lost; apps without a backchannel_logout_uri get nothing", async () => {
    received = [];
    await db().backchannelLogout.deleteMany({});
    const other = await signedInWithIdToken("student@schoolhouse.test", otherClientId);
    expect(await db().backchannelLogout.count()).toBe(0);
    await endMemberSessions({ userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, origins: [ISSUER], now: now(), reason: "test" });
    expect(await sessionLive(other.sessionId)).toBe(false);
    await db().backchannelLogout.deleteMany({});
    const { cookie } = await signedInWithIdToken();
    replyStatus = 503;
    setNow(new Date());
    const c = await csrf(app, cookie);
    await app.fetch("/api/auth/signout", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie }, body: new URLSearchParams({ csrfToken: c.token, callbackUrl: "/" }) });
    await drainBackchannelLogouts();
    let row = await db().backchannelLogout.findFirstOrThrow({});
    for (let i = 0; i < 100 && row.lastError === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await db().backchannelLogout.findFirstOrThrow({});
    }
    expect(row).toMatchObject({ status: "pending", lastError: "HTTP 503" });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(now().getTime());
    replyStatus = 200;
    // Not before its time…
    await drainBackchannelLogouts();
    expect(await db().backchannelLogout.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "pending", attempts: 1 });
    // …and delivered once it is due.
    advance(11_000);
    for (let i = 0; i < 100 && row.status !== "delivered"; i++) {
      await drainBackchannelLogouts();
      row = await db().backchannelLogout.findUniqueOrThrow({ where: { id: row.id } });
      if (row.status !== "delivered") await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastError: null });
  });
});
