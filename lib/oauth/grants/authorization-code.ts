import { hashSecret } from "../../credentials/secret";
import { db } from "../../db/client";
import type { GrantRequest } from "./grant-request";
import { InvalidGrantError, InvalidRequestError, InvalidTargetError } from "../errors";
import { isValidCodeVerifier, verifyPkce } from "../pkce";
import { parseScope } from "../scopes";
import { issueIdToken } from "../../oidc/id-token";
import { securityEvent } from "../../security/events";
import { issuedBy, issueTokens, revokeGrant, tokenResponseBody, type TokenResponseBody } from "../tokens";

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

  const row = await db().oAuthAuthorizationCode.findUnique({
    where: { codeHash: hashSecret(code) },
    // The member comes along for the ID token (no query of its own on the hot path).
    include: { grant: { include: { school: true, user: { include: { memberships: { select: { schoolId: true, roles: true } } } } } } },
  });
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
  if (row.grant.revokedAt) throw new InvalidGrantError("The authorization was revoked");
  if (row.redirectUri !== redirectUri) throw new InvalidGrantError("redirect_uri does not match the authorization request");
  if (!verifyPkce(verifier, row.codeChallenge)) throw new InvalidGrantError("code_verifier does not match the code_challenge");
  const resource = form.get("resource");
  if (resource !== undefined && resource !== row.resource) throw new InvalidTargetError("resource does not match the authorization request");

  const result = await db().$transaction(async (tx) => {
    // Only one exchange may consume the code, however many race.
    const consumed = await tx.oAuthAuthorizationCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: now } });
    if (consumed.count !== 1) return null;
    return issueTokens(tx, { grantId: row.grantId, clientId: client.clientId, scope: row.scope, audience: row.resource, now });
  });
  if (!result) {
    await revokeGrant(db(), row.grantId, now);
    securityEvent("oauth.code_replay", { client_id: client.clientId, grant_id: row.grantId });
    throw new InvalidGrantError("The authorization code was already used");
  }
  // OpenID Connect Core §3.1.3.3: an ID token whenever openid was granted, with the request's nonce.
  const idToken = parseScope(row.scope).includes("openid")
    ? await issueIdToken({
        grant: row.grant,
        clientId: client.clientId,
        scope: row.scope,
        accessToken: result.accessToken,
        nonce: row.nonce,
        now,
        alg: client.idTokenSignedResponseAlg,
        member: { ...row.grant.user, roles: row.grant.user.memberships.find((m) => m.schoolId === row.grant.schoolId)?.roles ?? [] },
      })
    : null;
  return tokenResponseBody(result, { scope: row.scope, school: row.grant.school }, idToken);
}
