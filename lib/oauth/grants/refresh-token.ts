import { randomUUID } from "node:crypto";
import { hashSecret } from "../../credentials/secret";
import { db } from "../../db/client";
import { rawQuery } from "../../db/raw";
import type { OAuthClientInfo } from "../clients";
import { InvalidGrantError, InvalidRequestError, InvalidScopeError } from "../errors";
import { formatScope, parseScope } from "../scopes";
import { securityEvent } from "../../security/events";
import { issueIdToken, type IdTokenGrant, type IdTokenMember } from "../../oidc/id-token";
import { issuedBy, newTokenPair, revokeGrant, tokenResponseBody, type TokenResponseBody } from "../tokens";

/**
 * A rotated refresh token presented again within this many seconds is answered invalid_grant but
 * left at that: two tabs or a retried request racing each other are not an attack. Later than
 * this, a replay means the token was copied, and the whole grant is revoked.
 */
export const REFRESH_REPLAY_GRACE_SECONDS = 10;

interface RefreshTokenRow {
  id: string;
  clientId: string;
  grantId: string;
  scope: string;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  grant: IdTokenGrant & { resource: string | null; revokedAt: Date | null; school: { id: string; subdomain: string } };
  /** The member, for the ID token's claims (read in the same statement). */
  member: IdTokenMember;
  /** Whether the statement rotated the token (and inserted the new ones). */
  rotated: boolean;
}

// Lookup and rotation in one statement through the raw driver (one round trip; docs/benchmarks.md,
// token-refresh). `t` reads the token, its grant and the grant's school; `rotated` marks the token
// rotated only when every check the grant makes holds (client, issuer, not rotated, not revoked, grant
// not revoked, not expired, a requested scope only narrowing), and only then are the new access and
// refresh tokens inserted. The checks on the token row itself are on the UPDATE's own row, so of
// concurrent rotations exactly one matches (the others wait, re-check the committed row and find it
// rotated). The caller re-checks `t` in JS to say why nothing was rotated; both sets of checks are
// the same rules, so a token is never rotated on a request that is then refused.
const REFRESH_TOKEN_GRANT = `
WITH t AS (
  SELECT r."id", r."clientId", r."grantId", r."scope", r."rotatedAt", r."revokedAt", r."expiresAt",
         g."issuer", g."resource", g."revokedAt" AS "grantRevokedAt", s."id" AS "schoolId", s."subdomain",
         g."userId", g."authTime", g."sessionId", g."createdAt" AS "grantCreatedAt",
         u."name" AS "userName", u."avatarUrl", u."email", u."emailVerified", m."roles"
    FROM "OAuthRefreshToken" r
    JOIN "OAuthGrant" g ON g."id" = r."grantId"
    JOIN "School" s ON s."id" = g."schoolId"
    JOIN "User" u ON u."id" = g."userId"
    LEFT JOIN "SchoolMembership" m ON m."schoolId" = g."schoolId" AND m."userId" = g."userId"
   WHERE r."tokenHash" = $1
), rotated AS (
  UPDATE "OAuthRefreshToken" r SET "rotatedAt" = $2
    FROM t
   WHERE r."id" = t."id" AND r."rotatedAt" IS NULL AND r."revokedAt" IS NULL
     AND t."clientId" = $3 AND t."issuer" <> '' AND t."issuer" = $4 AND t."grantRevokedAt" IS NULL
     AND (t."expiresAt" IS NULL OR t."expiresAt" > $2)
     AND ($5::text[] IS NULL OR (cardinality($5::text[]) > 0 AND $5::text[] <@ string_to_array(t."scope", ' ')))
  RETURNING r."id"
), access AS (
  INSERT INTO "OAuthAccessToken" ("id", "tokenHash", "grantId", "clientId", "scope", "audience", "createdAt", "expiresAt")
  SELECT $6::uuid, $7, t."grantId", $3, coalesce($8::text, t."scope"), t."resource", $2, $9 FROM rotated, t
), refresh AS (
  INSERT INTO "OAuthRefreshToken" ("id", "tokenHash", "grantId", "clientId", "scope", "createdAt", "expiresAt")
  SELECT $10::uuid, $11, t."grantId", $3, t."scope", $2, $12 FROM rotated, t
)
SELECT t."id"::text AS "id", t."clientId", t."grantId"::text AS "grantId", t."scope", t."rotatedAt", t."revokedAt", t."expiresAt",
       t."issuer", t."resource", t."grantRevokedAt", t."schoolId"::text AS "schoolId", t."subdomain",
       t."userId"::text AS "userId", t."authTime", t."sessionId"::text AS "sessionId", t."grantCreatedAt",
       t."userName", t."avatarUrl", t."email", t."emailVerified", t."roles",
       (SELECT count(*)::int FROM rotated) AS "rotated"
  FROM t`;

const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

async function findAndRotate(params: unknown[]): Promise<RefreshTokenRow | null> {
  const [r] = await rawQuery<Record<string, unknown>>(REFRESH_TOKEN_GRANT, params, { name: "refresh-token-grant" });
  if (!r) return null;
  return {
    id: r.id as string,
    clientId: r.clientId as string,
    grantId: r.grantId as string,
    scope: r.scope as string,
    rotatedAt: asDate(r.rotatedAt),
    revokedAt: asDate(r.revokedAt),
    expiresAt: asDate(r.expiresAt),
    grant: {
      issuer: r.issuer as string,
      resource: (r.resource as string | null) ?? null,
      revokedAt: asDate(r.grantRevokedAt),
      school: { id: r.schoolId as string, subdomain: r.subdomain as string },
      schoolId: r.schoolId as string,
      userId: r.userId as string,
      authTime: asDate(r.authTime),
      sessionId: (r.sessionId as string | null) ?? null,
      createdAt: asDate(r.grantCreatedAt)!,
    },
    member: {
      id: r.userId as string,
      name: r.userName as string,
      avatarUrl: (r.avatarUrl as string | null) ?? null,
      email: r.email as string,
      emailVerified: Boolean(r.emailVerified),
      roles: (r.roles as string[] | null) ?? [],
    },
    rotated: Number(r.rotated) === 1,
  };
}

/** refresh_token grant (RFC 6749 §6) with rotation: each success replaces the refresh token, atomically. */
export async function exchangeRefreshToken(options: {
  client: OAuthClientInfo;
  form: Map<string, string>;
  /** The origin the token request came to: the refresh token must have been issued there. */
  issuer: string;
  now: Date;
}): Promise<TokenResponseBody> {
  const { client, form, issuer, now } = options;
  const presented = form.get("refresh_token");
  if (!presented) throw new InvalidRequestError("refresh_token is required");
  const requested = form.get("scope");
  const narrowed = requested === undefined ? null : parseScope(requested);
  const { issued, access, refresh } = newTokenPair(now);
  const row = await findAndRotate([
    hashSecret(presented),
    now,
    client.clientId,
    issuer,
    narrowed,
    randomUUID(),
    access.tokenHash,
    // RFC 6749 §6: a narrower `scope` narrows this access token only; the new refresh token keeps
    // the scope the member granted, so a later refresh may ask for all of it again.
    narrowed ? formatScope(narrowed) : null,
    access.expiresAt,
    randomUUID(),
    refresh.tokenHash,
    refresh.expiresAt,
  ]);
  if (!row || row.clientId !== client.clientId) throw new InvalidGrantError("The refresh token is invalid");
  // Another origin's refresh token is unknown here: not rotated, and no replay check that could
  // revoke the grant from a foreign origin.
  if (!issuedBy(row.grant, issuer)) {
    securityEvent("oauth.issuer_mismatch", { kind: "refresh_token", client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The refresh token is invalid");
  }
  if (row.rotatedAt) {
    const replay = now.getTime() - row.rotatedAt.getTime() > REFRESH_REPLAY_GRACE_SECONDS * 1000;
    if (replay) await revokeGrant(db(), row.grantId, now);
    securityEvent("oauth.refresh_token_reuse", { client_id: client.clientId, grant_id: row.grantId, grant_revoked: replay });
    throw new InvalidGrantError("The refresh token was already used");
  }
  if (row.revokedAt || row.grant.revokedAt) throw new InvalidGrantError("The refresh token was revoked");
  if (row.expiresAt && row.expiresAt <= now) throw new InvalidGrantError("The refresh token expired");
  if (narrowed) {
    const original = new Set(parseScope(row.scope));
    if (!narrowed.length || narrowed.some((s) => !original.has(s))) {
      throw new InvalidScopeError("scope may only narrow the scopes originally granted");
    }
  }
  // Every check held but nothing was rotated: a concurrent request rotated it first.
  if (!row.rotated) throw new InvalidGrantError("The refresh token was already used");
  const scope = narrowed ? formatScope(narrowed) : row.scope;
  // OpenID Connect Core §12.2: a new ID token while the (possibly narrowed) scope includes openid,
  // for the same member, client and original sign-in, without a nonce.
  const idToken = parseScope(scope).includes("openid")
    ? await issueIdToken({ grant: row.grant, clientId: client.clientId, scope, accessToken: issued.accessToken, nonce: null, now, member: row.member })
    : null;
  return tokenResponseBody(issued, { scope, school: row.grant.school }, idToken);
}
