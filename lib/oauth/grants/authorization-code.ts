import { randomUUID } from "node:crypto";
import { hashSecret } from "../../credentials/secret";
import { db } from "../../db/client";
import { rawQuery, rowDate } from "../../db/raw";
import type { GrantRequest } from "./grant-request";
import { GRANT_MEMBER_COLUMNS, GRANT_MEMBER_JOINS, grantWithMember, insertTokenPair, type GrantWithMember } from "./grant-member";
import { InvalidGrantError, InvalidRequestError, InvalidTargetError } from "../errors";
import { isValidCodeVerifier, verifyPkce } from "../pkce";
import { parseScope } from "../scopes";
import { issueIdToken } from "../../oidc/id-token";
import { securityEvent } from "../../security/events";
import { issuedBy, newTokenPair, revokeGrant, tokenResponseBody, type TokenResponseBody } from "../tokens";

// The code exchange is two statements through the raw driver (docs/benchmarks.md, "One statement
// per hot read"): the code with its grant, school and member, checked here in the order the
// answers are chosen; then, only when every check held, the code consumed and the tokens inserted.
// The UPDATE re-checks consumedAt on its own row, so of concurrent exchanges exactly one consumes
// the code (the others wait, re-check the committed row and consume nothing).
const FIND_CODE = `
SELECT c."id"::text AS "id", c."grantId"::text AS "grantId", c."clientId", c."redirectUri", c."scope", c."codeChallenge",
       c."resource", c."nonce", c."expiresAt", c."consumedAt", g."revokedAt" AS "grantRevokedAt",
       ${GRANT_MEMBER_COLUMNS}
  FROM "OAuthAuthorizationCode" c
  JOIN "OAuthGrant" g ON g."id" = c."grantId"
  ${GRANT_MEMBER_JOINS}
 WHERE c."codeHash" = $1`;

const CONSUME_CODE = `
WITH consumed AS (
  UPDATE "OAuthAuthorizationCode" SET "consumedAt" = $2
   WHERE "id" = $1::uuid AND "consumedAt" IS NULL
  RETURNING "grantId", "clientId", "scope", "resource"
), ${insertTokenPair("consumed c", {
  grantId: 'c."grantId"',
  clientId: 'c."clientId"',
  now: "$2",
  access: { id: "$3::uuid", hash: "$4", scope: 'c."scope"', audience: 'c."resource"', expiresAt: "$5" },
  refresh: { id: "$6::uuid", hash: "$7", scope: 'c."scope"', expiresAt: "$8" },
})}
SELECT count(*)::int AS "consumed" FROM consumed`;

interface CodeRow extends GrantWithMember {
  id: string;
  grantId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  resource: string | null;
  nonce: string | null;
  expiresAt: Date;
  consumedAt: Date | null;
  grantRevokedAt: Date | null;
}

async function findCode(code: string): Promise<CodeRow | null> {
  const [r] = await rawQuery<Record<string, unknown>>(FIND_CODE, [hashSecret(code)], { name: "find-authorization-code" });
  if (!r) return null;
  return {
    ...grantWithMember(r),
    id: r.id as string,
    grantId: r.grantId as string,
    clientId: r.clientId as string,
    redirectUri: r.redirectUri as string,
    scope: r.scope as string,
    codeChallenge: r.codeChallenge as string,
    resource: (r.resource as string | null) ?? null,
    nonce: (r.nonce as string | null) ?? null,
    expiresAt: rowDate(r.expiresAt)!,
    consumedAt: rowDate(r.consumedAt),
    grantRevokedAt: rowDate(r.grantRevokedAt),
  };
}

/** authorization_code grant (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6). */
export async function exchangeAuthorizationCode(options: GrantRequest): Promise<TokenResponseBody> {
  const { client, form, issuer, now } = options;
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  const verifier = form.get("code_verifier");
  if (!code) throw new InvalidRequestError("code is required");
  if (!redirectUri) throw new InvalidRequestError("redirect_uri is required");
  if (!verifier) throw new InvalidRequestError("code_verifier is required");
  if (!isValidCodeVerifier(verifier)) throw new InvalidRequestError("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");

  const row = await findCode(code);
  if (!row || row.clientId !== client.clientId) throw new InvalidGrantError("The authorization code is invalid");
  // A code from another origin is unknown here: nothing is consumed or revoked on its behalf, so one
  // school's token endpoint cannot act on another's codes (RFC 9700 §4.4 mix-up; issuer binding).
  if (!issuedBy(row.grant, issuer)) {
    securityEvent("oauth.issuer_mismatch", { kind: "authorization_code", client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The authorization code is invalid");
  }
  if (row.consumedAt) {
    // RFC 6749 §4.1.2: a code used twice means it leaked; end everything issued from it.
    await revokeGrant(db(), row.grantId, now);
    securityEvent("oauth.code_replay", { client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The authorization code was already used");
  }
  if (row.expiresAt <= now) throw new InvalidGrantError("The authorization code expired");
  if (row.grantRevokedAt) throw new InvalidGrantError("The authorization was revoked");
  if (row.redirectUri !== redirectUri) throw new InvalidGrantError("redirect_uri does not match the authorization request");
  if (!verifyPkce(verifier, row.codeChallenge)) throw new InvalidGrantError("code_verifier does not match the code_challenge");
  const resource = form.get("resource");
  if (resource !== undefined && resource !== row.resource) throw new InvalidTargetError("resource does not match the authorization request");

  const { issued, access, refresh } = newTokenPair(now);
  const [consumed] = await rawQuery<{ consumed: number }>(
    CONSUME_CODE,
    [row.id, now, randomUUID(), access.tokenHash, access.expiresAt, randomUUID(), refresh.tokenHash, refresh.expiresAt],
    { name: "consume-authorization-code" },
  );
  // Only one exchange may consume the code, however many race: a loser means it was replayed.
  if (Number(consumed?.consumed) !== 1) {
    await revokeGrant(db(), row.grantId, now);
    securityEvent("oauth.code_replay", { client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The authorization code was already used");
  }
  // OpenID Connect Core §3.1.3.3: an ID token whenever openid was granted, with the request's nonce.
  const idToken = parseScope(row.scope).includes("openid")
    ? await issueIdToken({ grant: row.grant, clientId: client.clientId, scope: row.scope, accessToken: issued.accessToken, nonce: row.nonce, now, alg: client.idTokenSignedResponseAlg, member: row.member })
    : null;
  return tokenResponseBody(issued, { scope: row.scope, school: row.grant.school }, idToken);
}
