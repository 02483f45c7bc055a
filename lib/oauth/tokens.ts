import { randomUUID } from "node:crypto";
import { hashSecret, randomToken } from "../credentials/secret";
import { toUnixSeconds } from "../clock";
import { rawQuery } from "../db/raw";
import { env } from "../env";
import { securityEvent } from "../security/events";
import type { Prisma, PrismaClient } from "../db/generated/client";

export type Tx = Prisma.TransactionClient | PrismaClient;

/** Refresh tokens live 30 days; each rotation starts a fresh 30 days (an idle grant ends after a month). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Authorization codes are single-use and live at most this long. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

export const accessTokenTtlSeconds = () => env().OAUTH_ACCESS_TOKEN_TTL_SECONDS;

// Prefixes make leaked tokens recognizable to secret scanners and to people reading logs.
export const ACCESS_TOKEN_PREFIX = "sha_";
export const REFRESH_TOKEN_PREFIX = "shr_";
export const CODE_PREFIX = "shc_";

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  createdAt: Date;
}

/** Creates an access token and a refresh token for a grant. Call inside the caller's transaction. */
export async function issueTokens(
  tx: Tx,
  options: { grantId: string; clientId: string; scope: string; audience: string | null; now: Date },
): Promise<IssuedTokens> {
  const accessToken = ACCESS_TOKEN_PREFIX + randomToken(32);
  const refreshToken = REFRESH_TOKEN_PREFIX + randomToken(32);
  const ttl = accessTokenTtlSeconds();
  const { grantId, clientId, scope, audience, now } = options;
  await tx.oAuthAccessToken.create({
    data: { tokenHash: hashSecret(accessToken), grantId, clientId, scope, audience, createdAt: now, expiresAt: new Date(now.getTime() + ttl * 1000) },
  });
  await tx.oAuthRefreshToken.create({
    data: {
      tokenHash: hashSecret(refreshToken),
      grantId,
      clientId,
      scope,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    },
  });
  return { accessToken, refreshToken, expiresIn: ttl, createdAt: now };
}

/**
 * Refresh-token rotation as one statement: marks the presented token rotated and, only if that
 * matched, inserts the new access and refresh tokens. One statement is atomic without a
 * transaction; the conditional UPDATE is the lock, so of any number of concurrent rotations of a
 * token exactly one matches (the others re-check the row after it commits and find it rotated).
 * Null when the token was already rotated or revoked.
 */
export async function rotateRefreshToken(options: {
  refreshTokenId: string;
  grantId: string;
  clientId: string;
  accessScope: string;
  refreshScope: string;
  audience: string | null;
  now: Date;
}): Promise<IssuedTokens | null> {
  const accessToken = ACCESS_TOKEN_PREFIX + randomToken(32);
  const refreshToken = REFRESH_TOKEN_PREFIX + randomToken(32);
  const ttl = accessTokenTtlSeconds();
  const { refreshTokenId, grantId, clientId, accessScope, refreshScope, audience, now } = options;
  const accessExpires = new Date(now.getTime() + ttl * 1000);
  const refreshExpires = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  // Through the raw driver (lib/db/raw.ts): the token endpoint's hottest statement, where Prisma's
  // per-statement cost was a third of it (docs/benchmarks.md, token refresh).
  const rows = await rawQuery<{ rotated: number }>(ROTATE_REFRESH_TOKEN, [
    now,
    refreshTokenId,
    randomUUID(),
    hashSecret(accessToken),
    grantId,
    clientId,
    accessScope,
    audience,
    accessExpires,
    randomUUID(),
    hashSecret(refreshToken),
    refreshScope,
    refreshExpires,
  ], { name: "rotate-refresh-token" });
  return rows[0]?.rotated === 1 ? { accessToken, refreshToken, expiresIn: ttl, createdAt: now } : null;
}

// The conditional UPDATE lets exactly one of concurrent rotations of a token win; the new tokens are
// inserted only by the winner, in the same statement.
const ROTATE_REFRESH_TOKEN = `
WITH rotated AS (
  UPDATE "OAuthRefreshToken" SET "rotatedAt" = $1
   WHERE "id" = $2::uuid AND "rotatedAt" IS NULL AND "revokedAt" IS NULL
  RETURNING "id"
), access AS (
  INSERT INTO "OAuthAccessToken" ("id", "tokenHash", "grantId", "clientId", "scope", "audience", "createdAt", "expiresAt")
  SELECT $3::uuid, $4, $5::uuid, $6, $7, $8, $1, $9 FROM rotated
), refresh AS (
  INSERT INTO "OAuthRefreshToken" ("id", "tokenHash", "grantId", "clientId", "scope", "createdAt", "expiresAt")
  SELECT $10::uuid, $11, $5::uuid, $6, $12, $1, $13 FROM rotated
)
SELECT count(*)::int AS "rotated" FROM rotated`;

/** Ends a grant and everything issued from it. */
export async function revokeGrant(tx: Tx, grantId: string, now: Date): Promise<void> {
  await tx.oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now } });
  await tx.oAuthAccessToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
  await tx.oAuthRefreshToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
}

export interface TokenResponseBody {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  created_at: number;
  school_id: string;
  school_subdomain: string;
}

export function tokenResponseBody(tokens: IssuedTokens, grant: { scope: string; school: { id: string; subdomain: string } }): TokenResponseBody {
  return {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: grant.scope,
    created_at: toUnixSeconds(tokens.createdAt)!,
    school_id: grant.school.id,
    school_subdomain: grant.school.subdomain,
  };
}

/**
 * An access token that is live right now (not expired, not revoked, its grant not revoked) and was
 * issued by `issuer` (the origin the request came to), or null. A token of another origin is
 * unknown here, like a token that never existed (issuer binding, docs/decisions.md).
 */
export async function findActiveAccessToken(db: Tx, options: { token: string; issuer: string; now: Date }) {
  const { token, issuer, now } = options;
  if (!token || token.length > 512) return null;
  const row = await db.oAuthAccessToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { grant: { include: { school: true, user: true } } },
  });
  if (!row || row.revokedAt || row.grant.revokedAt || row.expiresAt <= now) return null;
  if (!issuedBy(row.grant, issuer)) {
    securityEvent("oauth.issuer_mismatch", { kind: "access_token", client_id: row.clientId, grant_id: row.grantId });
    return null;
  }
  return row;
}

/**
 * Whether a grant (and so its code and tokens) was made on `issuer`. Grants from before the issuer
 * was recorded carry '' and match nothing; an empty issuer never matches either.
 */
export function issuedBy(grant: { issuer: string }, issuer: string): boolean {
  return grant.issuer !== "" && grant.issuer === issuer;
}
