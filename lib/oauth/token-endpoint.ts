import { now as clockNow } from "../clock";
import { authenticateClient } from "./client-auth";
import { hostSchool, issuerFor } from "./context";
import { InvalidRequestError, UnauthorizedClientError, UnsupportedGrantTypeError } from "./errors";
import { exchangeAuthorizationCode } from "./grants/authorization-code";
import { exchangeRefreshToken } from "./grants/refresh-token";
import { handleOAuth, jsonResponse, clientCredentials, readForm } from "./http";

const GRANTS = {
  authorization_code: exchangeAuthorizationCode,
  refresh_token: exchangeRefreshToken,
} as const;

/** POST /api/oauth/token. Every answer, success or error, is Cache-Control: no-store. */
export function handleTokenRequest(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    await hostSchool(request.headers);
    const form = await readForm(request);
    const grantType = form.get("grant_type");
    if (!grantType) throw new InvalidRequestError("grant_type is required");
    if (!Object.hasOwn(GRANTS, grantType)) throw new UnsupportedGrantTypeError();
    const client = await authenticateClient(clientCredentials(request, form));
    if (!client.grantTypes.includes(grantType)) throw new UnauthorizedClientError(`This client may not use the ${grantType} grant`);
    // Codes and refresh tokens are redeemable only on the origin that issued them.
    const body = await GRANTS[grantType as keyof typeof GRANTS]({ client, form, issuer: issuerFor(request), now: clockNow() });
    return jsonResponse(body);
  });
}
