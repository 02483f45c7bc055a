import { now as clockNow } from "../clock";
import type { User } from "../db/generated/client";
import { asOAuthError, InvalidRequestError, InvalidScopeError, InvalidTokenError, TemporarilyUnavailableError, type OAuthError } from "./errors";
import { errorAnswer, jsonAnswer } from "./http";
import { sortRoles } from "../core/roles";
import { parseScope } from "./scopes";
import { findActiveAccessToken } from "./active-access-token";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";
import type { PlainRequest, PlainResponse } from "../http/plain";

const realm = 'Bearer realm="schoolhouse"';

function bearer(request: PlainRequest): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!m) throw new InvalidRequestError("Authorization header must be: Bearer <access token>");
  return m[1]!;
}

/**
 * GET or POST /api/oauth/userinfo (OpenID Connect Core §5.3). The access token comes in the
 * Authorization header only. Errors carry RFC 6750 WWW-Authenticate challenges; the 403 body uses
 * the spec's `invalid_scope` code while its challenge uses the RFC's `insufficient_scope`.
 */
export async function handleUserInfoRequest(request: PlainRequest): Promise<PlainResponse> {
  try {
    const context = requestContext(request);
    await authorizationServerSchool(context);
    const token = bearer(request);
    if (!token) throw new InvalidTokenError("An access token is required (Authorization: Bearer <token>)");
    const row = await findActiveAccessToken({ token, issuer: context.origin, now: clockNow() });
    if (!row) throw new InvalidTokenError();
    const scopes = new Set(parseScope(row.scope));
    if (!scopes.has("openid")) throw new InvalidScopeError("The access token lacks the openid scope", 403);
    // The member's roles came with the token (one statement: lib/oauth/active-access-token.ts).
    const { user, schoolId } = row.grant;
    return jsonAnswer(userInfoClaims({ user, schoolId, scopes, roles: row.roles }));
  } catch (error) {
    const oauth = asOAuthError(error);
    if (!oauth) throw error;
    // An outage is not a token problem: no challenge, so clients do not discard a good token.
    if (oauth instanceof TemporarilyUnavailableError) return errorAnswer(oauth);
    return errorAnswer(oauth, { "www-authenticate": challenge(oauth) });
  }
}

/** The UserInfo claims a token's scopes allow (also MCP's get_my_profile). */
export function userInfoClaims(options: {
  user: Pick<User, "id" | "name" | "avatarUrl" | "email" | "emailVerified">;
  schoolId: string;
  scopes: ReadonlySet<string>;
  roles: string[];
}): Record<string, unknown> {
  const { user, scopes } = options;
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.has("profile")) {
    claims.name = user.name;
    if (user.avatarUrl) claims.picture = user.avatarUrl;
  }
  if (scopes.has("email")) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  claims.org_id = options.schoolId;
  claims.roles = sortRoles(options.roles);
  return claims;
}

function challenge(error: OAuthError): string {
  if (error instanceof InvalidScopeError) return `${realm}, error="insufficient_scope", error_description="${error.description}", scope="openid"`;
  if (error instanceof InvalidTokenError) {
    // RFC 6750 §3.1: no error code when the request carried no token at all.
    return error.description.startsWith("An access token is required") ? realm : `${realm}, error="invalid_token", error_description="${error.description}"`;
  }
  if (error instanceof InvalidRequestError) return `${realm}, error="invalid_request", error_description="${error.description}"`;
  return realm;
}
