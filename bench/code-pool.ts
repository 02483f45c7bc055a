// The token-code workloads' authorization codes, written by SQL (generate_series) rather than
// through Prisma: since the code exchange is two raw statements it runs at up to ~2,000 a second,
// so a full run needs 80,000 single-use codes per kind, each on its own grant, as /oauth/authorize
// leaves them. Code i is derived from a random seed in Postgres and in Node alike (md5 of
// `seed:i`), so the rows are written in a few statements and the bench still knows every code.
import { createHash } from "node:crypto";

export interface CodePool {
  /** Random hex, new for every pool (every kind of every run). */
  seed: string;
  count: number;
  clientId: string;
  userId: string;
  schoolId: string;
  scope: string;
  issuer: string;
  redirectUri: string;
  codeChallenge: string;
  /** Whether each code carries a nonce (the openid kind: the ID token echoes it). */
  withNonce: boolean;
  authTime: Date;
  expiresAt: Date;
}

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

/** The codes the statements below store (only their SHA-256 hashes are stored, as the server does). */
export function codePoolCodes(pool: Pick<CodePool, "seed" | "count">): string[] {
  return Array.from({ length: pool.count }, (_, k) => `shc_${md5(`${pool.seed}:${k + 1}`)}${md5(`${pool.seed}:${k + 1}:b`)}`);
}

/** The grants and codes of a pool: statements with their parameters, for `$executeRawUnsafe`. */
export function codePoolStatements(pool: CodePool): { sql: string; params: unknown[] }[] {
  const grantId = `md5($1 || ':g:' || i)::uuid`;
  return [
    {
      sql: `INSERT INTO "OAuthGrant" ("id", "clientId", "userId", "schoolId", "scope", "issuer", "authTime", "sessionId")
            SELECT ${grantId}, $2, $3::uuid, $4::uuid, $5, $6, $7::timestamptz, md5($1 || ':s:' || i)::uuid
              FROM generate_series(1, $8::int) AS i`,
      params: [pool.seed, pool.clientId, pool.userId, pool.schoolId, pool.scope, pool.issuer, pool.authTime, pool.count],
    },
    {
      sql: `INSERT INTO "OAuthAuthorizationCode" ("id", "codeHash", "grantId", "clientId", "redirectUri", "scope", "codeChallenge", "codeChallengeMethod", "nonce", "expiresAt")
            SELECT md5($1 || ':c:' || i)::uuid,
                   encode(sha256(convert_to('shc_' || md5($1 || ':' || i) || md5($1 || ':' || i || ':b'), 'UTF8')), 'hex'),
                   ${grantId}, $2, $3, $4, $5, 'S256', CASE WHEN $6::boolean THEN md5($1 || ':n:' || i) END, $7::timestamptz
              FROM generate_series(1, $8::int) AS i`,
      params: [pool.seed, pool.clientId, pool.redirectUri, pool.scope, pool.codeChallenge, pool.withNonce, pool.expiresAt, pool.count],
    },
  ];
}
