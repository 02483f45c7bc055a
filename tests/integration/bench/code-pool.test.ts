// The bench's authorization codes (bench/code-pool.ts), written by SQL and known to the bench by
// the same derivation: every code the bench holds is redeemable exactly once at the real token
// endpoint, with an ID token carrying the stored nonce for the openid kind. PGlite, and Postgres
// with TEST_DATABASE_URL.
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { codePoolCodes, codePoolStatements, type CodePool } from "@/bench/code-pool";
import { hashSecret } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { verifyOwnJwt } from "@/lib/oidc/keys";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { exchangeCode, VERIFIER } from "../oauth/helpers";

const app = appForSuite({ host: "demo.localhost" });

const pool = (scope: string, withNonce: boolean): CodePool => ({
  seed: randomBytes(16).toString("hex"),
  count: 3,
  clientId: "demo-public-app",
  userId: DEMO_IDS.users.student,
  schoolId: DEMO_IDS.school,
  scope,
  issuer: "http://demo.localhost",
  redirectUri: "http://localhost:3000/oauth/callback",
  codeChallenge: createHash("sha256").update(VERIFIER).digest("base64url"),
  withNonce,
  authTime: new Date(),
  expiresAt: new Date(Date.now() + 3_600_000),
});

async function write(p: CodePool): Promise<string[]> {
  for (const { sql, params } of codePoolStatements(p)) await db().$executeRawUnsafe(sql, ...params);
  return codePoolCodes(p);
}

describe("the bench's code pool", () => {
  it("stores the SHA-256 of each code the bench holds, each on its own grant", async () => {
    const p = pool("offline_access courses:read", false);
    const codes = await write(p);
    expect(new Set(codes).size).toBe(3);
    const rows = await db().oAuthAuthorizationCode.findMany({ where: { codeHash: { in: codes.map(hashSecret) } }, include: { grant: true } });
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.grantId)).size).toBe(3);
    for (const r of rows) expect(r).toMatchObject({ nonce: null, consumedAt: null, grant: { issuer: "http://demo.localhost", userId: DEMO_IDS.users.student } });
  });

  it("every code is redeemed once at the token endpoint; the openid kind's ID token echoes its nonce", async () => {
    const p = pool("openid profile email offline_access", true);
    for (const code of await write(p)) {
      const res = await exchangeCode(app, code);
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { id_token: string };
      const stored = await db().oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(code) } });
      expect((await verifyOwnJwt(body.id_token)).nonce).toBe(stored.nonce);
      expect(stored.nonce).toMatch(/^[0-9a-f]{32}$/);
      expect((await exchangeCode(app, code)).status).toBe(400);
    }
  });
});
