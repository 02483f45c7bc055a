import { now as clockNow, toUnixSeconds } from "../clock";
import { db } from "../db/client";
import { authenticateClient } from "./client-auth";
import { hostSchool, issuerFor } from "./context";
import { InvalidRequestError } from "./errors";
import { handleOAuth, jsonResponse, readForm, refuseBasicAuth } from "./http";
import { findActiveAccessToken } from "./tokens";

/**
 * POST /api/oauth/introspect (RFC 7662). The caller authenticates as a client and may only learn
 * about its own access tokens: anything else (unknown, expired, revoked, another client's, a
 * refresh token) is `{"active": false}` and nothing more.
 */
export function handleIntrospectRequest(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    await hostSchool(request.headers);
    refuseBasicAuth(request);
    const form = await readForm(request);
    const token = form.get("token");
    if (!token) throw new InvalidRequestError("token is required");
    const client = await authenticateClient({ clientId: form.get("client_id"), clientSecret: form.get("client_secret") });
    const row = await findActiveAccessToken(db(), token, clockNow());
    if (!row || row.clientId !== client.clientId) return jsonResponse({ active: false });
    return jsonResponse({
      active: true,
      scope: row.scope,
      client_id: row.clientId,
      token_type: "Bearer",
      exp: toUnixSeconds(row.expiresAt),
      iat: toUnixSeconds(row.createdAt),
      sub: row.grant.userId,
      aud: row.audience ?? issuerFor(request),
      iss: issuerFor(request),
      school_id: row.grant.schoolId,
    });
  });
}
