// Bench setup, run in its own process before the bench server starts (PGlite allows one process per
// directory, and its lock is released when this process exits). Against the bench's own scratch
// database (a temporary PGlite directory or a scratch Postgres database, never the developer's):
// migrate, seed the demo schools, then add what the workloads need that the demo seed does not have.
//
// - API keys of the demo school with every permission, issued by the function behind
//   `npm run apikey -- create`, half with rate limits enforced and half counted only
//   (enforceLimits=false); one is leased per in-flight request (see docs/benchmarks.md).
// - Refresh tokens: the rows a completed authorization of `demo-public-app` by the demo student
//   would leave (a grant and its refresh token, stored hashed), so the refresh-grant workload does
//   not have to drive the login and consent pages in a browser. Each token is used exactly once.
//   The grants record the bench server's origin as their issuer: refresh tokens are redeemable only
//   on the origin that issued them (issue 12). Half the grants include `openid` (their refreshes
//   sign an ID token), half do not, so the bench can show what signing costs (issue 25).
// - Authorization codes, likewise with and without `openid`: the rows /oauth/authorize leaves after
//   consent (a grant and its code, hashed, bound to one PKCE verifier), each redeemed once by the
//   token-code workloads. They expire in a day rather than a minute: the bench redeems them over
//   several minutes of warm-up and segments, and expiry is not what it measures.
//
// - Access tokens (grants without openid), for the introspect workload: introspection only reads,
//   so every request may present the same token.
//
// - A pool of live subscriptions (bench/subscription-pool.ts) for the workloads that read, update
//   and cancel existing subscriptions, and a cursor seven eighths into the school's subscriptions
//   for the deep page (taken after every dataset is written).
//
// - The member-search dataset (bench/member-dataset.ts) when <members> is above 0.
//
// - With BENCH_LARGE_SCALE (npm run bench -- --large <scale>, Postgres only): the large-school
//   dataset of bench/large-dataset.ts on top of the demo seed, written last so the generator's
//   ANALYZE sees every row.
//
// Usage: tsx bench/prepare-db.ts <out.json> <keysPerKind> <refreshTokens> <issuer origin> [<codesPerKind>] [<members>]
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { DEMO_IDS } from "../lib/startup/seed/demo-data";
import { randomDemoCredentials } from "../lib/startup/seed/demo-credentials";
import { seedDemo } from "../lib/startup/seed/seed";
import { createApiKey } from "../lib/admin-api/api-keys";
import { ALL_PERMISSIONS } from "../lib/credentials/permissions";
import { hashSecret, randomToken } from "../lib/credentials/secret";
import { runCli } from "../scripts/cli";
import { codePoolCodes, codePoolStatements, type CodePool } from "./code-pool";
import { generateMemberDataset } from "./member-dataset";
import { generateLargeDataset } from "./large-dataset";
import { deepSubscriptionCursor, subscriptionPool, subscriptionPoolStatements, type SubscriptionPool } from "./subscription-pool";
import { TEST_ACTOR } from "../tests/helpers/audit-actor";

export interface PreparedCredentials {
  /** Keys with enforceLimits=true. */
  enforcedKeys: string[];
  /** Keys with enforceLimits=false: counted and reported, never rejected. */
  countedKeys: string[];
  /** Grants with openid: each refresh also signs an ID token. */
  refreshTokens: string[];
  /** Grants without openid: no ID token. */
  plainRefreshTokens: string[];
  /** Authorization codes with openid, and without; each redeemable once with codeVerifier at codeRedirectUri. */
  codes: string[];
  plainCodes: string[];
  codeVerifier: string;
  codeRedirectUri: string;
  oauthClientId: string;
  /** Access tokens of grants without openid, for the introspect workload (read-only: reused by every request). */
  accessTokens: string[];
  /**
   * Live subscriptions of the demo school for the workloads that read or change existing ones
   * (bench/subscription-pool.ts), and the cursor of a page seven eighths into the school's list.
   */
  subscriptionPool?: SubscriptionPool & { deepCursor: string | null };
}

export const BENCH_OAUTH_CLIENT = "demo-public-app";
const BENCH_SCOPE = "openid profile email offline_access courses:read";
const BENCH_PLAIN_SCOPE = "offline_access courses:read";
const BENCH_REDIRECT_URI = "http://127.0.0.1/callback";

const [out, keysArg, tokensArg, issuer, codesArg, membersArg] = process.argv.slice(2);
if (!out || !issuer) {
  console.error("usage: prepare-db.ts <out.json> <keysPerKind> <refreshTokens> <issuer origin>");
  process.exit(2);
}
const keysPerKind = Number(keysArg ?? 8);
const tokenCount = Number(tokensArg ?? 64);
const codesPerKind = Number(codesArg ?? 20_000);
const members = Number(membersArg ?? 0);
/** The update workload's 1,000 and enough to cancel one per request for minutes. */
const SUBSCRIPTION_POOL = 10_000;


await runCli(async () => {
  const handle = dbHandle();
  const prisma = handle.prisma;
  try {
    await migrate({ driver: handle.driver });
    // Random demo credentials, never the README's: the bench server runs `next start` in production
    // mode, which refuses to serve a Postgres database that accepts the published ones. The bench
    // uses only the keys and tokens it issues below.
    await seedDemo({ prisma, credentials: randomDemoCredentials() });

    // Issued exactly as `npm run apikey -- create --school demo --permissions all [--enforce-limits]` does.
    const makeKeys = async (enforceLimits: boolean) => {
      const keys: string[] = [];
      for (let i = 0; i < keysPerKind; i++) {
        const { key } = await createApiKey({ actor: TEST_ACTOR, now: new Date(),
          school: "demo",
          name: `Benchmark ${i + 1} (limits ${enforceLimits ? "enforced" : "counted only"})`,
          permissions: [ALL_PERMISSIONS],
          enforceLimits,
        });
        keys.push(key);
      }
      return keys;
    };
    const enforcedKeys = await makeKeys(true);
    const countedKeys = await makeKeys(false);

    const now = new Date();
    const expiresAt = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
    const grants = (count: number, scope: string) => {
      const rows = Array.from({ length: count }, () => ({
        id: randomUUID(),
        clientId: BENCH_OAUTH_CLIENT,
        userId: DEMO_IDS.users.student,
        schoolId: DEMO_IDS.school,
        scope,
        issuer,
        authTime: now,
        sessionId: randomUUID(),
      }));
      return prisma.oAuthGrant.createMany({ data: rows }).then(() => rows);
    };
    const makeRefreshTokens = async (scope: string) => {
      const rows = await grants(tokenCount, scope);
      const tokens = rows.map(() => randomToken());
      await prisma.oAuthRefreshToken.createMany({
        data: tokens.map((token, i) => ({ tokenHash: hashSecret(token), grantId: rows[i]!.id, clientId: BENCH_OAUTH_CLIENT, scope, expiresAt })),
      });
      return tokens;
    };
    // Access tokens as a refresh or code exchange issues them (stored hashed), for introspection.
    const makeAccessTokens = async (count: number) => {
      const rows = await grants(count, BENCH_PLAIN_SCOPE);
      const tokens = rows.map(() => randomToken());
      await prisma.oAuthAccessToken.createMany({
        data: tokens.map((token, i) => ({ tokenHash: hashSecret(token), grantId: rows[i]!.id, clientId: BENCH_OAUTH_CLIENT, scope: BENCH_PLAIN_SCOPE, expiresAt })),
      });
      return tokens;
    };
    const codeVerifier = randomToken();
    const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
    const makeCodes = async (scope: string) => {
      const pool: CodePool = {
        seed: randomBytes(16).toString("hex"),
        count: codesPerKind,
        clientId: BENCH_OAUTH_CLIENT,
        userId: DEMO_IDS.users.student,
        schoolId: DEMO_IDS.school,
        scope,
        issuer,
        redirectUri: BENCH_REDIRECT_URI,
        codeChallenge,
        withNonce: scope.includes("openid"),
        authTime: now,
        expiresAt: new Date(now.getTime() + 24 * 3600 * 1000),
      };
      for (const { sql, params } of codePoolStatements(pool)) await prisma.$executeRawUnsafe(sql, ...params);
      return codePoolCodes(pool);
    };

    const result: PreparedCredentials = {
      enforcedKeys,
      countedKeys,
      refreshTokens: await makeRefreshTokens(BENCH_SCOPE),
      plainRefreshTokens: await makeRefreshTokens(BENCH_PLAIN_SCOPE),
      codes: await makeCodes(BENCH_SCOPE),
      plainCodes: await makeCodes(BENCH_PLAIN_SCOPE),
      codeVerifier,
      codeRedirectUri: BENCH_REDIRECT_URI,
      oauthClientId: BENCH_OAUTH_CLIENT,
      accessTokens: await makeAccessTokens(4),
    };
    const pool = { schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count: SUBSCRIPTION_POOL, tag: "bench" };
    for (const sql of subscriptionPoolStatements(pool)) await prisma.$executeRawUnsafe(sql);
    if (members > 0) await generateMemberDataset(prisma, { members });
    const largeScale = Number(process.env.BENCH_LARGE_SCALE || 0);
    if (largeScale > 0) {
      if (handle.driver.kind !== "pg") throw new Error("the large dataset needs Postgres (DATABASE_URL)");
      const client = await handle.driver.pool.connect();
      try {
        const started = Date.now();
        await generateLargeDataset((sql) => client.query(sql), { schoolId: DEMO_IDS.school, scale: largeScale, clientId: BENCH_OAUTH_CLIENT });
        console.log(`large dataset at scale ${largeScale} written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        client.release();
      }
    }
    result.subscriptionPool = { ...subscriptionPool(pool), deepCursor: await deepSubscriptionCursor(prisma, DEMO_IDS.school) };
    writeFileSync(out, JSON.stringify(result));
  } finally {
    await closeDbHandle(handle);
  }
});
