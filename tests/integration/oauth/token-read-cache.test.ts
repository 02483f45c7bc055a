// The embedded database answers a live access token's row from memory until anything is written
// (lib/db/read-cache.ts). Each change below is made while that row is cached, through the path a
// user takes, and must hold on the very next request: revocation is exact, not eventual. On
// Postgres (integration-pg) nothing is cached and the same requests must answer the same.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db, dbHandle } from "@/lib/db/client";
import { revokeMemberGrant } from "@/lib/oauth/member-grants/revoke-member-grant";
import { REFRESH_REPLAY_GRACE_SECONDS } from "@/lib/oauth/grants/refresh-token";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { statementsDuring } from "../../helpers/statements";
import { form, signIn, tokensFor, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
const student = { schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student };
let cookie: string;
beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => setNow(null));

const introspect = (token: string) => app.fetch("/api/oauth/introspect", form({ client_id: "demo-public-app", token }));
const active = async (token: string) => ((await (await introspect(token)).json()) as { active: boolean }).active;
const userinfo = (token: string) => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${token}` } });
const revoke = (token: string) => app.fetch("/api/oauth/revoke", form({ client_id: "demo-public-app", token }));
const refresh = (token: string) => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: token, client_id: "demo-public-app" }));
const tokenReads = (sql: string[]) => sql.filter((s) => s.includes('FROM "OAuthAccessToken" a'));

/** Introspects until the token's row is held in memory, and proves the last request read nothing of it (embedded). */
async function cached(token: string): Promise<void> {
  for (let i = 0; i < 2; i++) expect(await active(token)).toBe(true);
  const { result, sql } = await statementsDuring(() => introspect(token));
  expect(((await result.json()) as { active: boolean }).active).toBe(true);
  expect(tokenReads(sql)).toHaveLength(dbHandle().driver.kind === "pglite" ? 0 : 1);
}

const fresh = (): Promise<TokenBody> => tokensFor(app, cookie, { scope: "openid profile email" });

describe("a cached access token", () => {
  it("is answered without reading the database, and a fresh token of the same grant still reads it", async () => {
    const t = await fresh();
    await cached(t.access_token);
    const rotated = (await (await refresh(t.refresh_token)).json()) as TokenBody;
    const { sql } = await statementsDuring(() => introspect(rotated.access_token));
    expect(tokenReads(sql)).toHaveLength(1);
  });

  it("revoked through the revocation endpoint: inactive on the next request", async () => {
    const t = await fresh();
    await cached(t.access_token);
    expect((await revoke(t.access_token)).status).toBe(200);
    expect(await active(t.access_token)).toBe(false);
    expect((await userinfo(t.access_token)).status).toBe(401);
  });

  it("its grant's refresh token revoked: inactive on the next request", async () => {
    const t = await fresh();
    await cached(t.access_token);
    await revoke(t.refresh_token);
    expect(await active(t.access_token)).toBe(false);
  });

  it("its refresh token replayed after the grace period: the grant and the token are revoked at once", async () => {
    const t = await fresh();
    const rotated = (await (await refresh(t.refresh_token)).json()) as TokenBody;
    await cached(rotated.access_token);
    setNow(new Date(now().getTime() + (REFRESH_REPLAY_GRACE_SECONDS + 1) * 1000));
    expect((await refresh(t.refresh_token)).status).toBe(400);
    expect(await active(rotated.access_token)).toBe(false);
  });

  it("the member ends the app's access: inactive on the next request", async () => {
    const t = await fresh();
    await cached(t.access_token);
    await revokeMemberGrant({ db: db(), ...student, clientId: "demo-public-app", now: now(), actor: TEST_ACTOR });
    expect(await active(t.access_token)).toBe(false);
    expect((await userinfo(t.access_token)).status).toBe(401);
  });

  it("expired: inactive without any write", async () => {
    const t = await fresh();
    await cached(t.access_token);
    advance(t.expires_in * 1000);
    expect(await active(t.access_token)).toBe(false);
  });

  it("the member's name and roles change: UserInfo answers the new ones on the next request", async () => {
    const t = await fresh();
    await cached(t.access_token);
    const before = (await db().user.findUniqueOrThrow({ where: { id: student.userId } })).name;
    const membership = await db().schoolMembership.findFirstOrThrow({ where: student });
    try {
      await db().user.update({ where: { id: student.userId }, data: { name: "Renamed Student" } });
      await db().schoolMembership.update({ where: { id: membership.id }, data: { roles: ["student", "instructor"] } });
      const claims = (await (await userinfo(t.access_token)).json()) as { name: string; roles: string[] };
      expect(claims.name).toBe("Renamed Student");
      expect(claims.roles).toContain("instructor");
    } finally {
      await db().user.update({ where: { id: student.userId }, data: { name: before } });
      await db().schoolMembership.update({ where: { id: membership.id }, data: { roles: membership.roles } });
    }
  });
});
