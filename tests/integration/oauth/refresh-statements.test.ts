// What an ID token adds to a refresh_token grant (docs/benchmarks.md, "ID tokens (token-refresh,
// token-code)"): no statement. The member's claims, auth_time and sid come with the grant's one
// statement (lib/oauth/grants/refresh-token.ts), and the signing key from the process's key set,
// read only when CredentialVersion moves. So a refresh with openid and one without send the same
// statements, and what the ID token costs is the signature. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { hashSecret } from "@/lib/credentials/secret";
import { verifyOwnJwt } from "@/lib/oidc/keys";
import { accessTokenHash } from "@/lib/oidc/id-token";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { statementsDuring } from "../../helpers/statements";
import { envForSuite } from "../../helpers/suite-env";
import { form, signIn, tokensFor, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;

const refresh = (token: string) => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: token, client_id: "demo-public-app" }));

/** Every statement that reads or writes rows (the version reads of the process caches are left to the other describe). */
const rowStatements = (sql: string[]) => sql.filter((s) => /^(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(s) && !s.includes('FROM "CredentialVersion" WHERE'));

/** Two refreshes in a row (the first warms the caches: school, client, key set), the second counted. */
async function countedRefresh(scope: string): Promise<{ body: TokenBody & { id_token?: string }; sql: string[] }> {
  const first = await tokensFor(app, cookie, { scope });
  const warm = (await (await refresh(first.refresh_token)).json()) as TokenBody;
  const { result, sql } = await statementsDuring(() => refresh(warm.refresh_token));
  expect(result.status).toBe(200);
  return { body: (await result.json()) as TokenBody & { id_token?: string }, sql };
}

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});

describe("a refresh with openid sends what one without sends", () => {
  // The version the caches read is trusted for a minute here, as a production instance trusts it
  // for STOREFRONT_REVALIDATE_MS: the steady state of a server under load.
  envForSuite({ STOREFRONT_REVALIDATE_MS: "60000" });

  it("one statement each: the grant's lookup, checks, rotation and inserts, with the member for the ID token", async () => {
    const plain = await countedRefresh("offline_access courses:read");
    const openid = await countedRefresh("openid profile email offline_access courses:read");
    expect(plain.body.id_token).toBeUndefined();
    expect(typeof openid.body.id_token).toBe("string");
    expect(plain.sql).toHaveLength(1);
    expect(openid.sql).toHaveLength(1);
    expect(openid.sql[0]).toBe(plain.sql[0]);
    expect(openid.sql[0]).toMatch(/^WITH t AS \( SELECT .* FROM "OAuthRefreshToken" r JOIN "OAuthGrant" g .* JOIN "User" u .* LEFT JOIN "SchoolMembership" m/);
  });

  it("the ID token of that one statement carries the claims of a refresh (OpenID Connect Core §12.2)", async () => {
    const { body } = await countedRefresh("openid profile email offline_access");
    const claims = await verifyOwnJwt(body.id_token!);
    const stored = await db().oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(body.refresh_token) }, include: { grant: true } });
    expect(claims).toMatchObject({
      iss: stored.grant.issuer,
      sub: DEMO_IDS.users.student,
      aud: "demo-public-app",
      azp: "demo-public-app",
      email: "student@schoolhouse.test",
      roles: ["student"],
      auth_time: Math.floor(stored.grant.authTime!.getTime() / 1000),
      sid: stored.grant.sessionId,
      at_hash: accessTokenHash(body.access_token),
    });
    expect(claims).not.toHaveProperty("nonce");
  });
});

describe("with every version read made (STOREFRONT_REVALIDATE_MS=0, the suites' setting)", () => {
  it("the ID token adds at most the key set's version read, and no row statement", async () => {
    const plain = await countedRefresh("offline_access courses:read");
    const openid = await countedRefresh("openid profile email offline_access courses:read");
    expect(rowStatements(openid.sql)).toEqual(rowStatements(plain.sql));
    expect(rowStatements(openid.sql)).toHaveLength(1);
    const versionReads = (sql: string[]) => sql.filter((s) => s.includes('FROM "CredentialVersion" WHERE'));
    expect(openid.sql.length - plain.sql.length).toBe(versionReads(openid.sql).length - versionReads(plain.sql).length);
    expect(versionReads(openid.sql).length - versionReads(plain.sql).length).toBeLessThanOrEqual(1);
  });
});
