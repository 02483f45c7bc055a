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
//   on the origin that issued them (issue 12).
//
// Usage: tsx bench/prepare-db.ts <out.json> <keysPerKind> <refreshTokens> <issuer origin>
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { DEMO_IDS } from "../lib/db/seed/demo-data";
import { randomDemoCredentials } from "../lib/db/seed/demo-credentials";
import { seedDemo } from "../lib/db/seed/seed";
import { createApiKey } from "../lib/admin-api/api-keys";
import { ADMIN_OPERATIONS } from "../lib/credentials/permissions";
import { hashSecret, randomToken } from "../lib/credentials/secret";
import { runCli } from "../scripts/cli";

export interface PreparedCredentials {
  /** Keys with enforceLimits=true. */
  enforcedKeys: string[];
  /** Keys with enforceLimits=false: counted and reported, never rejected. */
  countedKeys: string[];
  refreshTokens: string[];
  oauthClientId: string;
}

export const BENCH_OAUTH_CLIENT = "demo-public-app";
const BENCH_SCOPE = "openid profile email offline_access courses:read";

const [out, keysArg, tokensArg, issuer] = process.argv.slice(2);
if (!out || !issuer) {
  console.error("usage: prepare-db.ts <out.json> <keysPerKind> <refreshTokens> <issuer origin>");
  process.exit(2);
}
const keysPerKind = Number(keysArg ?? 8);
const tokenCount = Number(tokensArg ?? 64);

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
        const { key } = await createApiKey({
          school: "demo",
          name: `Benchmark ${i + 1} (limits ${enforceLimits ? "enforced" : "counted only"})`,
          permissions: [...ADMIN_OPERATIONS],
          enforceLimits,
        });
        keys.push(key);
      }
      return keys;
    };
    const enforcedKeys = await makeKeys(true);
    const countedKeys = await makeKeys(false);

    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const refreshTokens = Array.from({ length: tokenCount }, () => randomToken());
    const grantIds = refreshTokens.map(() => randomUUID());
    await prisma.oAuthGrant.createMany({
      data: grantIds.map((id) => ({ id, clientId: BENCH_OAUTH_CLIENT, userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, scope: BENCH_SCOPE, issuer })),
    });
    await prisma.oAuthRefreshToken.createMany({
      data: refreshTokens.map((token, i) => ({
        tokenHash: hashSecret(token),
        grantId: grantIds[i]!,
        clientId: BENCH_OAUTH_CLIENT,
        scope: BENCH_SCOPE,
        expiresAt,
      })),
    });

    const result: PreparedCredentials = { enforcedKeys, countedKeys, refreshTokens, oauthClientId: BENCH_OAUTH_CLIENT };
    writeFileSync(out, JSON.stringify(result));
  } finally {
    await closeDbHandle(handle);
  }
});
