// One statement per hot read (issue 30 item 3): introspection, UserInfo, MCP's bearer token and an
// Admin API key's verification each read their credential with one named raw statement (as the
// refresh grant does), and no hot read goes through Prisma. Counted with the database handle's
// statement listener, which sees Prisma's statements and the raw driver's alike. The embedded
// database keeps a token's row in memory once read (tests/integration/oauth/token-read-cache.test.ts),
// so each measured request reads a token nothing has read before; a warm-up with another token
// fills the school's and the client's caches.
import { beforeAll, describe, expect, it } from "vitest";
import { forgetApiKeys } from "@/lib/credentials/api-key-cache";
import { verifyApiKey } from "@/lib/credentials/verify-api-key";
import { findActiveAccessToken } from "@/lib/oauth/active-access-token";
import { DEFAULT_DEMO_API_KEY, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { form, signIn, tokensFor, type TokenBody } from "./helpers";
import { statementsDuring } from "../../helpers/statements";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});

/** Tokens no request has read yet (and another set, read once, so every cache but the token's is warm). */
async function unreadTokens(warm: (token: string) => Promise<unknown>): Promise<TokenBody> {
  const scope = { scope: "openid profile email" };
  await warm((await tokensFor(app, cookie, scope)).access_token);
  return tokensFor(app, cookie, scope);
}


/** Statements that read the tables of an access token or a key, and any Prisma statement (it names "public"."…"). */
const credentialReads = (sql: string[]) => sql.filter((s) => /"(OAuthAccessToken|OAuthGrant|ApiKey)"/.test(s));
const prisma = (sql: string[]) => sql.filter((s) => s.includes('"public".'));

const introspect = (token: string) => app.fetch("/api/oauth/introspect", form({ client_id: "demo-public-app", token }));
const userinfo = (token: string) => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${token}` } });

describe("one statement per hot read", () => {
  it("introspection: the token, its grant and member in one statement, nothing through Prisma", async () => {
    const tokens = await unreadTokens(introspect);
    const { result, sql } = await statementsDuring(() => introspect(tokens.access_token));
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ active: true, client_id: "demo-public-app", sub: DEMO_IDS.users.student, school_id: DEMO_IDS.school });
    expect(credentialReads(sql)).toHaveLength(1);
    expect(credentialReads(sql)[0]).toMatch(/FROM "OAuthAccessToken" a JOIN "OAuthGrant" g .* LEFT JOIN "SchoolMembership" m/);
    expect(prisma(sql)).toEqual([]);
  });

  it("UserInfo: the claims and the member's roles from the same one statement", async () => {
    const tokens = await unreadTokens(userinfo);
    const { result, sql } = await statementsDuring(() => userinfo(tokens.access_token));
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ sub: DEMO_IDS.users.student, email: "student@schoolhouse.test", roles: ["student"], org_id: DEMO_IDS.school });
    expect(credentialReads(sql)).toHaveLength(1);
    expect(sql.filter((s) => s.includes('"SchoolMembership"'))).toHaveLength(1);
    expect(prisma(sql)).toEqual([]);
  });

  it("an unknown token costs at most the one statement, an oversized one none, and another origin's token is refused after it", async () => {
    for (const token of ["sha_not-a-token", "x".repeat(600)]) {
      const { result, sql } = await statementsDuring(() => findActiveAccessToken({ token, issuer: app.url, now: new Date() }));
      expect(result).toBeNull();
      expect(credentialReads(sql).length).toBeLessThanOrEqual(1);
    }
    const tokens = await unreadTokens(introspect);
    const { result, sql } = await statementsDuring(() => findActiveAccessToken({ token: tokens.access_token, issuer: "http://elsewhere.test", now: new Date() }));
    expect(result).toBeNull();
    expect(credentialReads(sql)).toHaveLength(1);
  });

  it("an Admin API key: one statement (row, school and version) on a cache miss, none on a hit", async () => {
    forgetApiKeys();
    const now = new Date();
    const miss = await statementsDuring(() => verifyApiKey({ key: DEFAULT_DEMO_API_KEY, now }));
    expect(miss.result.schoolId).toBe(DEMO_IDS.school);
    const keyReads = miss.sql.filter((s) => s.includes('FROM "ApiKey"'));
    expect(keyReads).toHaveLength(1);
    expect(keyReads[0]).toContain('"CredentialVersion"');
    expect(keyReads[0]).toContain('JOIN "School" s');
    expect(prisma(miss.sql)).toEqual([]);
    // The hit (within the revalidation bound the cache trusts its version read) asks nothing of the
    // key's tables; the last-used write, at most once a minute, is a raw statement too.
    const hit = await statementsDuring(() => verifyApiKey({ key: DEFAULT_DEMO_API_KEY, now }));
    expect(hit.sql.filter((s) => s.includes('FROM "ApiKey"'))).toEqual([]);
    expect(prisma(hit.sql)).toEqual([]);
  });
});
