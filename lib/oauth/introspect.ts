import { now as clockNow, toUnixSeconds } from "../clock";
import { handleOAuth, jsonAnswer } from "./http";
import { readTokenManagementRequest } from "./token-management-request";
import { findActiveAccessToken } from "./active-access-token";
import { requestContext } from "../tenancy/request-context";
import type { PlainRequest, PlainResponse } from "../http/plain";

/**
 * POST /api/oauth/introspect (RFC 7662). The caller authenticates as a client and may only learn
 * about its own access tokens issued on this origin: anything else (unknown, expired, revoked,
 * another client's, another origin's, a refresh token) is `{"active": false}` and nothing more.
 * `iss` and `aud` are the token's own: the origin that issued it and the resource it was issued
 * for (the issuer when none was named).
 */
export function handleIntrospectRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    const { token, client } = await readTokenManagementRequest(request);
    const row = await findActiveAccessToken({ token, issuer: requestContext(request).origin, now: clockNow() });
    if (!row || row.clientId !== client.clientId) return jsonAnswer({ active: false });
    return jsonAnswer({
      active: true,
      scope: row.scope,
      client_id: row.clientId,
      token_type: "Bearer",
      exp: toUnixSeconds(row.expiresAt),
      iat: toUnixSeconds(row.createdAt),
      sub: row.grant.userId,
      aud: row.audience ?? row.grant.issuer,
      iss: row.grant.issuer,
      school_id: row.grant.schoolId,
    });
  });
}
