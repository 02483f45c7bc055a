import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { listMemberGrants } from "@/lib/oauth/member-grants/list-member-grants";
import { revokeMemberGrant } from "@/lib/oauth/member-grants/revoke-member-grant";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { form, getCode, signIn, tokensFor, VERIFIER, type TokenBody } from "./helpers";

// Issue 25, item 6: the grants a member can see and end (the domain query below every transport).
const app = appForSuite({ host: "demo.localhost" });
const CONF_CB = "https://reports.schoolhouse.test/oauth/callback";
const SECRET = "demo-confidential-secret-dev-only";
let cookie: string;

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => setNow(null));

const student = { schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student };
const list = () => listMemberGrants({ db: db(), ...student, now: now() });
const userinfo = (t: string) => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${t}` } });
const refresh = (t: string) => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: t, client_id: "demo-public-app" }));

async function confidentialTokens(scope = "openid email"): Promise<TokenBody> {
  const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB, scope });
  const res = await app.fetch(
    "/api/oauth/token",
    form({ grant_type: "authorization_code", code, redirect_uri: CONF_CB, client_id: "demo-confidential-app", client_secret: SECRET, code_verifier: VERIFIER }),
  );
  return (await res.json()) as TokenBody;
}

describe("a member's grants, per client", () => {
  it("lists each connected app once, with the union of scopes and first and last use", async () => {
    const start = new Date(Date.now() + 3600_000);
    setNow(start);
    const a = await tokensFor(app, cookie, { scope: "openid profile" });
    advance(60_000);
    await tokensFor(app, cookie, { scope: "openid email" });
    advance(60_000);
    await confidentialTokens();
    advance(60_000);
    const rotatedAt = now();
    expect((await refresh(a.refresh_token)).status).toBe(200);

    const grants = await list();
    const pub = grants.find((g) => g.clientId === "demo-public-app")!;
    expect(pub).toMatchObject({ clientName: "Demo Public App", clientHost: null, scope: "email openid profile" });
    expect(pub.grantIds).toHaveLength(2);
    expect(pub.firstUsedAt.toISOString()).toBe(start.toISOString());
    expect(pub.lastUsedAt.toISOString()).toBe(rotatedAt.toISOString());
    const conf = grants.find((g) => g.clientId === "demo-confidential-app")!;
    expect(conf).toMatchObject({ clientName: "Demo Reporting Service", scope: "email openid" });
    // Newest use first.
    expect(grants.map((g) => g.clientId).slice(0, 2)).toEqual(["demo-public-app", "demo-confidential-app"]);
  });

  it("shows only this member's grants at this school, and no ended ones", async () => {
    await tokensFor(app, cookie);
    expect(await listMemberGrants({ db: db(), schoolId: DEMO_IDS.acmeSchool, userId: DEMO_IDS.users.student, now: now() })).toEqual([]);
    expect(await listMemberGrants({ db: db(), schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.owner, now: now() })).toEqual([]);
    // Past every refresh token's life (30 days) and access token's, nothing is live any more.
    setNow(new Date(Date.now() + 40 * 24 * 3600_000));
    expect(await list()).toEqual([]);
  });

  it("a grant whose code was never redeemed is listed until the code expires", async () => {
    setNow(new Date(Date.now() + 2 * 3600_000));
    await db().oAuthConsent.deleteMany({});
    await db().oAuthGrant.updateMany({ where: { clientId: "demo-confidential-app" }, data: { revokedAt: now() } });
    expect((await list()).map((g) => g.clientId)).not.toContain("demo-confidential-app");
    await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB, scope: "openid" });
    expect((await list()).map((g) => g.clientId)).toContain("demo-confidential-app");
    advance(61_000);
    expect((await list()).map((g) => g.clientId)).not.toContain("demo-confidential-app");
  });
});

describe("revoking a member's grant", () => {
  it("ends every live grant of that client at once: access and refresh tokens stop working, consent is forgotten", async () => {
    const a = await tokensFor(app, cookie);
    const b = await tokensFor(app, cookie);
    const other = await confidentialTokens();
    const r = await revokeMemberGrant({ db: db(), ...student, clientId: "demo-public-app", now: now(), actor: TEST_ACTOR });
    expect(r.revokedGrants).toBeGreaterThanOrEqual(2);
    for (const t of [a, b]) {
      expect((await userinfo(t.access_token)).status).toBe(401);
      expect((await refresh(t.refresh_token)).status).toBe(400);
    }
    expect((await userinfo(other.access_token)).status).toBe(200);
    expect((await list()).map((g) => g.clientId)).not.toContain("demo-public-app");
    expect(await db().oAuthConsent.count({ where: { ...student, clientId: "demo-public-app" } })).toBe(0);
    // The app must ask again: the next authorization goes through the consent page.
    const again = await app.fetch(
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", code_challenge: "x".repeat(43), code_challenge_method: "S256", scope: "openid" })}`,
      { headers: { cookie } },
    );
    expect(again.headers.get("location")).toMatch(/^\/oauth\/consent/);
  });

  it("a code issued before the revocation cannot be redeemed after it", async () => {
    await db().oAuthConsent.deleteMany({});
    const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB, scope: "openid" });
    await revokeMemberGrant({ db: db(), ...student, clientId: "demo-confidential-app", now: now(), actor: TEST_ACTOR });
    const res = await app.fetch(
      "/api/oauth/token",
      form({ grant_type: "authorization_code", code, redirect_uri: CONF_CB, client_id: "demo-confidential-app", client_secret: SECRET, code_verifier: VERIFIER }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("touches nothing of another member or another school, and says when nothing was live", async () => {
    const mine = await tokensFor(app, cookie);
    expect((await revokeMemberGrant({ db: db(), schoolId: DEMO_IDS.acmeSchool, userId: DEMO_IDS.users.student, clientId: "demo-public-app", now: now(), actor: TEST_ACTOR })).revokedGrants).toBe(0);
    expect((await revokeMemberGrant({ db: db(), schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.owner, clientId: "demo-public-app", now: now(), actor: TEST_ACTOR })).revokedGrants).toBe(0);
    expect((await userinfo(mine.access_token)).status).toBe(200);
  });
});
