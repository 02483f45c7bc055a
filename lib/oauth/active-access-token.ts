import { hashSecret } from "../credentials/secret";
import type { User } from "../db/generated/client";
import { createReadCache } from "../db/read-cache";
import { rowDate } from "../db/raw";
import { securityEvent } from "../security/events";
import { issuedBy } from "./tokens";

/** The member an access token speaks for: what UserInfo, introspection and MCP read of them. */
export type AccessTokenMember = Pick<User, "id" | "name" | "avatarUrl" | "email" | "emailVerified">;

export interface ActiveAccessToken {
  id: string;
  grantId: string;
  clientId: string;
  scope: string;
  audience: string | null;
  expiresAt: Date;
  createdAt: Date;
  grant: { id: string; userId: string; schoolId: string; issuer: string; user: AccessTokenMember };
  /** The member's roles in the grant's school (none when they are no longer a member). */
  roles: string[];
}

// Every hot read of an access token (introspection, UserInfo, MCP's bearer) is this one named
// statement: the token, its grant, the member and their roles in the grant's school, by the
// token's unique hash (docs/benchmarks.md, "One statement per hot read"). The liveness and issuer
// checks stay in JavaScript below, so an issuer mismatch can still be told apart and logged.
const ACTIVE_ACCESS_TOKEN = `
SELECT a."id"::text AS "id", a."grantId"::text AS "grantId", a."clientId", a."scope", a."audience",
       a."expiresAt", a."revokedAt", a."createdAt",
       g."userId"::text AS "userId", g."schoolId"::text AS "schoolId", g."issuer", g."revokedAt" AS "grantRevokedAt",
       u."name", u."avatarUrl", u."email", u."emailVerified", m."roles"
  FROM "OAuthAccessToken" a
  JOIN "OAuthGrant" g ON g."id" = a."grantId"
  JOIN "User" u ON u."id" = g."userId"
  LEFT JOIN "SchoolMembership" m ON m."schoolId" = g."schoolId" AND m."userId" = g."userId"
 WHERE a."tokenHash" = $1`;

/** Tokens kept per process on the embedded database (about a kilobyte each at most). */
export const ACTIVE_ACCESS_TOKEN_CACHE_MAX_ENTRIES = 10_000;

// On the embedded database a token's row is read once and then answered from memory until anything
// is written (any revocation, refresh, membership or user change drops every entry at once:
// lib/db/read-cache.ts); on Postgres every read asks the database.
export const activeAccessTokenReads = createReadCache<Row>({
  name: "active-access-token",
  sql: ACTIVE_ACCESS_TOKEN,
  maxEntries: ACTIVE_ACCESS_TOKEN_CACHE_MAX_ENTRIES,
});

interface Row {
  id: string;
  grantId: string;
  clientId: string;
  scope: string;
  audience: string | null;
  expiresAt: unknown;
  revokedAt: unknown;
  createdAt: unknown;
  userId: string;
  schoolId: string;
  issuer: string;
  grantRevokedAt: unknown;
  name: string;
  avatarUrl: string | null;
  email: string;
  emailVerified: boolean;
  roles: string[] | null;
}

/**
 * An access token that is live right now (not expired, not revoked, its grant not revoked) and was
 * issued by `issuer` (the origin the request came to), or null. A token of another origin is
 * unknown here, like a token that never existed (issuer binding, docs/decisions.md).
 */
export async function findActiveAccessToken(options: { token: string; issuer: string; now: Date }): Promise<ActiveAccessToken | null> {
  const { token, issuer, now } = options;
  if (!token || token.length > 512) return null;
  const [r] = await activeAccessTokenReads.read([hashSecret(token)]);
  if (!r) return null;
  const expiresAt = rowDate(r.expiresAt)!;
  if (r.revokedAt !== null || r.grantRevokedAt !== null || expiresAt <= now) return null;
  if (!issuedBy(r, issuer)) {
    securityEvent("oauth.issuer_mismatch", { kind: "access_token", client_id: r.clientId, grant_id: r.grantId });
    return null;
  }
  return {
    id: r.id,
    grantId: r.grantId,
    clientId: r.clientId,
    scope: r.scope,
    audience: r.audience ?? null,
    expiresAt,
    createdAt: rowDate(r.createdAt)!,
    grant: {
      id: r.grantId,
      userId: r.userId,
      schoolId: r.schoolId,
      issuer: r.issuer,
      user: { id: r.userId, name: r.name, avatarUrl: r.avatarUrl ?? null, email: r.email, emailVerified: Boolean(r.emailVerified) },
    },
    roles: r.roles ?? [],
  };
}
