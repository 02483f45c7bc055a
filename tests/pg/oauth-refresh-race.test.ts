import { beforeAll, describe, expect, it } from "vitest";
import { hashSecret, randomToken } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { findClient, type OAuthClientInfo } from "@/lib/oauth/clients";
import { InvalidGrantError } from "@/lib/oauth/errors";
import { exchangeRefreshToken } from "@/lib/oauth/grants/refresh-token";

const RACES = 1_000;
const PARALLEL_RACES = 25;
const ISSUER = "http://demo.localhost";
let client: OAuthClientInfo;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  client = (await findClient("demo-public-app"))!;
}, 60_000);

describe("refresh token rotation on Postgres", () => {
  it(`${RACES} races of two concurrent refreshes with one token: exactly one winner each`, async () => {
    const now = new Date();
    const tokens = Array.from({ length: RACES }, () => `shr_${randomToken(32)}`);
    const grants = tokens.map(() => crypto.randomUUID());
    await db().oAuthGrant.createMany({
      data: grants.map((id) => ({ id, clientId: client.clientId, userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, scope: "openid", issuer: ISSUER })),
    });
    await db().oAuthRefreshToken.createMany({
      data: tokens.map((t, i) => ({ tokenHash: hashSecret(t), grantId: grants[i]!, clientId: client.clientId, scope: "openid", expiresAt: new Date(now.getTime() + 3_600_000) })),
    });

    const outcome = { won: 0, lost: 0, other: [] as unknown[] };
    const race = async (token: string) => {
      const results = await Promise.allSettled([0, 1].map(() => exchangeRefreshToken({ client, form: new Map([["refresh_token", token]]), issuer: ISSUER, now })));
      const wins = results.filter((r) => r.status === "fulfilled").length;
      for (const r of results) if (r.status === "rejected" && !(r.reason instanceof InvalidGrantError)) outcome.other.push(r.reason);
      if (wins === 1) outcome.won++;
      else outcome.lost++;
    };
    for (let i = 0; i < RACES; i += PARALLEL_RACES) {
      await Promise.all(tokens.slice(i, i + PARALLEL_RACES).map(race));
    }
    expect(outcome.other).toEqual([]);
    expect(outcome).toMatchObject({ won: RACES, lost: 0 });
    // Exactly one successor token and one access token per grant.
    const perGrant = await db().oAuthRefreshToken.groupBy({ by: ["grantId"], where: { grantId: { in: grants } }, _count: true });
    expect(perGrant.every((g) => g._count === 2)).toBe(true);
    expect(await db().oAuthAccessToken.count({ where: { grantId: { in: grants } } })).toBe(RACES);
    expect(await db().oAuthRefreshToken.count({ where: { grantId: { in: grants }, rotatedAt: { not: null } } })).toBe(RACES);
  }, 240_000);
});
