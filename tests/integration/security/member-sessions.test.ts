// Issue 12, attacks 1 and 3: sessions are server-side. A cookie forged with a known secret, a copy
// kept after sign-out, one replayed on another school's host, or one past its absolute lifetime
// reaches neither consent nor anything else.
import { encode } from "@auth/core/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authSecret } from "@/lib/auth/auth-secret";
import { SESSION_LIFETIME_SECONDS } from "@/lib/auth/member-sessions";
import { advance, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { authorizeUrl, csrf, mergeCookies, signIn } from "../oauth/helpers";

const app = appForSuite({ host: "demo.localhost:3000" });
afterEach(() => {
  setNow(null);
  vi.restoreAllMocks();
});

const authorize = authorizeUrl({ client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" });

/** Where GET /oauth/authorize sends this cookie: the login page, or on towards consent/the client. */
async function authorizeAs(cookie: string, host = "demo.localhost:3000"): Promise<string> {
  const res = await app.fetch(authorize, { headers: { cookie, host } });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!, "http://x").pathname;
}

async function signOut(cookie: string): Promise<void> {
  const c = await csrf(app, cookie);
  const res = await app.fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
    body: new URLSearchParams({ csrfToken: c.token, callbackUrl: "/" }),
  });
  expect(res.status).toBe(302);
  expect(mergeCookies(c.cookie, res)).not.toMatch(/authjs\.session-token=/);
}

describe("member sessions", () => {
  it("a signed-in member reaches consent", async () => {
    expect(await authorizeAs(await signIn(app, "owner@schoolhouse.test"))).toBe("/oauth/consent");
  });

  it("a cookie forged with the session secret but naming no server-side session is no session", async () => {
    // Even knowing the secret (here the published test one) gets an attacker nowhere.
    for (const token of [
      { sub: DEMO_IDS.users.owner, email: "owner@schoolhouse.test", name: "Olivia Park" },
      { sub: DEMO_IDS.users.owner, email: "owner@schoolhouse.test", sid: "5c400000-0000-4000-8000-00ff00000001" },
    ]) {
      const forged = await encode({ token, secret: authSecret(), salt: "authjs.session-token" });
      expect(await authorizeAs(`authjs.session-token=${forged}`)).toBe("/login");
    }
  });

  it("signing out ends every copy of the cookie", async () => {
    const cookie = await signIn(app, "teacher@schoolhouse.test");
    const copy = cookie;
    expect(await authorizeAs(copy)).toBe("/oauth/consent");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await signOut(cookie);
    expect(await authorizeAs(copy)).toBe("/login");
    const events = warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
    expect(events).toContainEqual(expect.objectContaining({ type: "security", event: "session.revoked", reason: "sign_out" }));
  });

  it("a session works only on the school origin it was created on", async () => {
    const cookie = await signIn(app, "multi@schoolhouse.test");
    expect(await authorizeAs(cookie)).toBe("/oauth/consent");
    for (const host of ["acme-training.localhost:3000", "localhost:3000", "demo.localhost:3001"]) {
      expect(await authorizeAs(cookie, host), host).toBe("/login");
    }
  });

  it("ends at its absolute lifetime however recently it was used", async () => {
    setNow(new Date("2026-05-01T08:00:00Z"));
    const cookie = await signIn(app, "admin@schoolhouse.test");
    const row = await db().memberSession.findFirstOrThrow({ where: { userId: DEMO_IDS.users.admin }, orderBy: { createdAt: "desc" } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(SESSION_LIFETIME_SECONDS * 1000);
    for (let day = 0; day < 6; day++) {
      advance(24 * 3600 * 1000);
      expect(await authorizeAs(cookie)).toBe("/oauth/consent");
    }
    advance(24 * 3600 * 1000);
    expect(await authorizeAs(cookie)).toBe("/login");
  });
});
