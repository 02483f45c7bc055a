// The authorization_code grant's statements (docs/benchmarks.md, "One statement per hot read"):
// one named raw read of the code with its grant, school and member (the ID token's claims), one
// statement that consumes the code and inserts the tokens, and nothing through Prisma. With openid
// the same statements are sent: what the ID token adds is the signature. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { verifyOwnJwt } from "@/lib/oidc/keys";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { statementsDuring } from "../../helpers/statements";
import { envForSuite } from "../../helpers/suite-env";
import { exchangeCode, getCode, signIn, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;

const code = async (scope: string, nonce?: string) =>
  (await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", scope, nonce })).code;

/** Every statement that reads or writes rows (not the process caches' version reads). */
const rowStatements = (sql: string[]) => sql.filter((s) => /^(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(s) && !s.includes('FROM "CredentialVersion" WHERE'));

async function countedExchange(scope: string, nonce?: string): Promise<{ body: TokenBody & { id_token?: string }; sql: string[] }> {
  // The first exchange warms the caches (school, client, key set); the second is counted.
  expect((await exchangeCode(app, await code(scope))).status).toBe(200);
  const fresh = await code(scope, nonce);
  const { result, sql } = await statementsDuring(() => exchangeCode(app, fresh));
  expect(result.status).toBe(200);
  return { body: (await result.json()) as TokenBody & { id_token?: string }, sql: rowStatements(sql) };
}

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});

describe("the authorization_code grant's statements", () => {
  envForSuite({ STOREFRONT_REVALIDATE_MS: "60000" });

  it("two statements: the code with its grant and member, then the consumption with both tokens; none through Prisma", async () => {
    const plain = await countedExchange("offline_access courses:read");
    const openid = await countedExchange("openid profile email offline_access courses:read");
    expect(plain.body.id_token).toBeUndefined();
    expect(typeof openid.body.id_token).toBe("string");
    expect(openid.sql).toEqual(plain.sql);
    expect(plain.sql).toHaveLength(2);
    expect(plain.sql[0]).toMatch(/^SELECT .* FROM "OAuthAuthorizationCode" c JOIN "OAuthGrant" g .* JOIN "User" u .* LEFT JOIN "SchoolMembership" m .* WHERE c."codeHash" = \$1$/);
    expect(plain.sql[1]).toMatch(/^WITH consumed AS \( UPDATE "OAuthAuthorizationCode" .* INSERT INTO "OAuthAccessToken" .* INSERT INTO "OAuthRefreshToken" /);
    expect(plain.sql.filter((s) => s.includes('"public".'))).toEqual([]);
  });

  it("the ID token carries the member's claims and the request's nonce from that one read", async () => {
    const { body } = await countedExchange("openid profile email", "n-0S6_WzA2Mj");
    const claims = await verifyOwnJwt(body.id_token!);
    expect(claims).toMatchObject({ sub: DEMO_IDS.users.student, aud: "demo-public-app", email: "student@schoolhouse.test", email_verified: true, roles: ["student"], nonce: "n-0S6_WzA2Mj" });
    expect(typeof claims.auth_time).toBe("number");
    expect(typeof claims.sid).toBe("string");
  });

  it("of ten concurrent exchanges of one code exactly one gets tokens, and the losers end the grant", async () => {
    const shared = await code("offline_access courses:read");
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchangeCode(app, shared)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(400)]);
    const winner = (await answers.find((r) => r.status === 200)!.json()) as TokenBody;
    // A replayed code revokes everything issued from it (RFC 6749 §4.1.2), the winner's tokens too.
    const introspected = await app.fetch("/api/oauth/introspect", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "demo-public-app", token: winner.access_token }),
    });
    expect(await introspected.json()).toEqual({ active: false });
  });
});
