import { hashSecret, randomToken } from "../credentials/secret";
import { toUnixSeconds } from "../clock";
import { env } from "../env";
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

/** A new access and refresh token: what the client gets, and the hashes and expiries that are stored. */
export function newTokenPair(now: Date): {
  issued: IssuedTokens;
  access: { tokenHash: string; expiresAt: Date };
  refresh: { tokenHash: string; expiresAt: Date };
} {
  const accessToken = ACCESS_TOKEN_PREFIX + randomToken(32);
  const refreshToken = REFRESH_TOKEN_PREFIX + randomToken(32);
  const ttl = accessTokenTtlSeconds();
  return {
    issued: { accessToken, refreshToken, expiresIn: ttl, createdAt: now },
    access: { tokenHash: hashSecret(accessToken), expiresAt: new Date(now.getTime() + ttl * 1000) },
    refresh: { tokenHash: hashSecret(refreshToken), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000) },
  };
}

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
  /** OpenID Connect: when the granted scope includes openid. */
  id_token?: string;
}

export function tokenResponseBody(
  tokens: IssuedTokens,
  grant: { scope: string; school: { id: string; subdomain: string } },
  idToken: string | null = null,
): TokenResponseBody {
  return {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: grant.scope,
    created_at: toUnixSeconds(tokens.createdAt)!,
    school_id: grant.school.id,
    school_subdomain: grant.school.subdomain,
    ...(idToken ? { id_token: idToken } : {}),
  };
}

/**
 * Whether a grant (and so its code and tokens) was made on `issuer`. Grants from before the issuer
 * was recorded carry '' and match nothing; an empty issuer never matches either.
 */
export function issuedBy(grant: { issuer: string }, issuer: string): boolean {
  return grant.issuer !== "" && grant.issuer === issuer;
}
