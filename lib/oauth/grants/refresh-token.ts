import { hashSecret } from "../../credentials/secret";
import { db } from "../../db/client";
import { rawQuery } from "../../db/raw";
import type { OAuthClientInfo } from "../clients";
import { InvalidGrantError, InvalidRequestError, InvalidScopeError } from "../errors";
import { formatScope, parseScope } from "../scopes";
import { securityEvent } from "../../security/events";
import { issuedBy, revokeGrant, rotateRefreshToken, tokenResponseBody, type TokenResponseBody } from "../tokens";

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
  grant: { issuer: string; resource: string | null; revokedAt: Date | null; school: { id: string; subdomain: string } };
}

// The token, its grant and the grant's school in one statement through the raw driver: Prisma's
// include ran three (token, grant, school), each compiled by Prisma and planned by the database
// (docs/benchmarks.md, token-refresh).
const FIND_REFRESH_TOKEN = `
SELECT t."id"::text AS "id", t."clientId", t."grantId"::text AS "grantId", t."scope", t."rotatedAt", t."revokedAt", t."expiresAt",
       g."issuer", g."resource", g."revokedAt" AS "grantRevokedAt", s."id"::text AS "schoolId", s."subdomain"
  FROM "OAuthRefreshToken" t
  JOIN "OAuthGrant" g ON g."id" = t."grantId"
  JOIN "School" s ON s."id" = g."schoolId"
 WHERE t."tokenHash" = $1`;

const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

async function findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | null> {
  const [r] = await rawQuery<Record<string, unknown>>(FIND_REFRESH_TOKEN, [tokenHash], { name: "find-refresh-token" });
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
    },
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
  const row = await findRefreshToken(hashSecret(presented));
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

  let scope = row.scope;
  const requested = form.get("scope");
  if (requested !== undefined) {
    const narrowed = parseScope(requested);
    const original = new Set(parseScope(row.scope));
    if (!narrowed.length || narrowed.some((s) => !original.has(s))) {
      throw new InvalidScopeError("scope may only narrow the scopes originally granted");
    }
    scope = formatScope(narrowed);
  }

  const issued = await rotateRefreshToken({
    refreshTokenId: row.id,
    grantId: row.grantId,
    clientId: client.clientId,
    // RFC 6749 §6: a narrower `scope` narrows this access token only; the new refresh token keeps
    // the scope the member granted, so a later refresh may ask for all of it again.
    accessScope: scope,
    refreshScope: row.scope,
    audience: row.grant.resource,
    now,
  });
  if (!issued) throw new InvalidGrantError("The refresh token was already used");
  return tokenResponseBody(issued, { scope, school: row.grant.school });
}
