import { randomUUID } from "node:crypto";
import { hashSecret } from "../../credentials/secret";
import { db } from "../../db/client";
import { rawQuery, rowDate } from "../../db/raw";
import { GRANT_MEMBER_COLUMNS, GRANT_MEMBER_JOINS, grantMemberColumnsOf, grantWithMember, insertTokenPair, type GrantWithMember } from "./grant-member";
import type { GrantRequest } from "./grant-request";
import { InvalidGrantError, InvalidRequestError, InvalidScopeError } from "../errors";
import { formatScope, parseScope } from "../scopes";
import { securityEvent } from "../../security/events";
import { issueIdToken } from "../../oidc/id-token";
import { newTokenPair, revokeGrant, tokenResponseBody, type TokenResponseBody } from "../tokens";

/**
 * A rotated refresh token presented again within this many seconds is answered invalid_grant but
 * left at that: two tabs or a retried request racing each other are not an attack. Later than
 * this, a replay means the token was copied, and the whole grant is revoked.
 */
export const REFRESH_REPLAY_GRACE_SECONDS = 10;

/** Why the statement did not rotate a token it found (null: every check held). */
type Refusal = "client" | "issuer" | "rotated" | "revoked" | "expired" | "scope" | null;

interface RefreshTokenRow extends GrantWithMember {
  grantId: string;
  scope: string;
  rotatedAt: Date | null;
  refusal: Refusal;
  /** Whether the statement rotated the token (and inserted the new ones). */
  rotated: boolean;
}

// Lookup, checks and rotation in one statement through the raw driver (one round trip;
// docs/benchmarks.md, token-refresh). `t` reads the token, its grant and the grant's school, and
// decides `refusal`, the first check that fails, in the order the answers are chosen (client,
// issuer, already rotated, revoked, expired, a requested scope that does not only narrow): the
// rules are written here once, and the caller only turns the reason into its error. `rotated` marks
// the token rotated only when there is no refusal, and only then are the new access and refresh
// tokens inserted. The UPDATE re-checks rotatedAt and revokedAt on its own row: of concurrent
// rotations exactly one matches (the others wait, re-check the committed row and find it rotated).
// The UPDATE names the token by its hash as well as by t's id: joined to t alone, the generic plan
// Postgres caches for this named statement (made while the table is small) read every refresh token
// sequentially, so each refresh cost more the more tokens there were
// (tests/integration/oauth/generic-plans.test.ts; docs/benchmarks.md, "The embedded database").
const REFRESH_TOKEN_GRANT = `
WITH t AS (
  SELECT r."id", r."grantId", r."scope", r."rotatedAt", g."resource",
         ${GRANT_MEMBER_COLUMNS},
         CASE
           WHEN r."clientId" <> $3 THEN 'client'
           WHEN g."issuer" = '' OR g."issuer" <> $4 THEN 'issuer'
           WHEN r."rotatedAt" IS NOT NULL THEN 'rotated'
           WHEN r."revokedAt" IS NOT NULL OR g."revokedAt" IS NOT NULL THEN 'revoked'
           WHEN r."expiresAt" IS NOT NULL AND r."expiresAt" <= $2 THEN 'expired'
           WHEN $5::text[] IS NOT NULL
                AND NOT (cardinality($5::text[]) > 0 AND $5::text[] <@ string_to_array(r."scope", ' ')) THEN 'scope'
         END AS "refusal"
    FROM "OAuthRefreshToken" r
    JOIN "OAuthGrant" g ON g."id" = r."grantId"
    ${GRANT_MEMBER_JOINS}
   WHERE r."tokenHash" = $1
), rotated AS (
  UPDATE "OAuthRefreshToken" r SET "rotatedAt" = $2
    FROM t
   WHERE r."tokenHash" = $1 AND r."id" = t."id" AND t."refusal" IS NULL AND r."rotatedAt" IS NULL AND r."revokedAt" IS NULL
  RETURNING r."id"
), ${insertTokenPair("rotated, t", {
  grantId: 't."grantId"',
  clientId: "$3",
  now: "$2",
  access: { id: "$6::uuid", hash: "$7", scope: 'coalesce($8::text, t."scope")', audience: 't."resource"', expiresAt: "$9" },
  refresh: { id: "$10::uuid", hash: "$11", scope: 't."scope"', expiresAt: "$12" },
})}
SELECT t."grantId"::text AS "grantId", t."scope", t."rotatedAt", t."refusal", ${grantMemberColumnsOf("t")},
       (SELECT count(*)::int FROM rotated) AS "rotated"
  FROM t`;

async function findAndRotate(params: unknown[]): Promise<RefreshTokenRow | null> {
  const [r] = await rawQuery<Record<string, unknown>>(REFRESH_TOKEN_GRANT, params, { name: "refresh-token-grant" });
  if (!r) return null;
  return {
    ...grantWithMember(r),
    grantId: r.grantId as string,
    scope: r.scope as string,
    rotatedAt: rowDate(r.rotatedAt),
    refusal: (r.refusal as Refusal) ?? null,
    rotated: Number(r.rotated) === 1,
  };
}

/** refresh_token grant (RFC 6749 §6) with rotation: each success replaces the refresh token, atomically. */
export async function exchangeRefreshToken(options: GrantRequest): Promise<TokenResponseBody> {
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
  if (!row || row.refusal === "client") throw new InvalidGrantError("The refresh token is invalid");
  // Another origin's refresh token is unknown here: not rotated, and no replay check that could
  // revoke the grant from a foreign origin.
  if (row.refusal === "issuer") {
    securityEvent("oauth.issuer_mismatch", { kind: "refresh_token", client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The refresh token is invalid");
  }
  if (row.refusal === "rotated") {
    const replay = now.getTime() - row.rotatedAt!.getTime() > REFRESH_REPLAY_GRACE_SECONDS * 1000;
    if (replay) await revokeGrant(db(), row.grantId, now);
    securityEvent("oauth.refresh_token_reuse", { client_id: client.clientId, grant_id: row.grantId, grant_revoked: replay });
    throw new InvalidGrantError("The refresh token was already used");
  }
  if (row.refusal === "revoked") throw new InvalidGrantError("The refresh token was revoked");
  if (row.refusal === "expired") throw new InvalidGrantError("The refresh token expired");
  if (row.refusal === "scope") throw new InvalidScopeError("scope may only narrow the scopes originally granted");
  // Every check held but nothing was rotated: a concurrent request rotated it first.
  if (!row.rotated) throw new InvalidGrantError("The refresh token was already used");
  const scope = narrowed ? formatScope(narrowed) : row.scope;
  // OpenID Connect Core §12.2: a new ID token while the (possibly narrowed) scope includes openid,
  // for the same member, client and original sign-in, without a nonce.
  const idToken = parseScope(scope).includes("openid")
    ? await issueIdToken({ grant: row.grant, clientId: client.clientId, scope, accessToken: issued.accessToken, nonce: null, now, member: row.member, alg: client.idTokenSignedResponseAlg })
    : null;
  return tokenResponseBody(issued, { scope, school: row.grant.school }, idToken);
}
