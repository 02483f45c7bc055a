import { now as clockNow } from "../clock";
import { authenticateClient } from "./client-auth";
import { InvalidRequestError, UnauthorizedClientError, UnsupportedGrantTypeError } from "./errors";
import { exchangeAuthorizationCode } from "./grants/authorization-code";
import { exchangeRefreshToken } from "./grants/refresh-token";
import { handleOAuth, jsonAnswer, clientCredentials, readForm } from "./http";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";
import type { PlainRequest, PlainResponse } from "../http/plain";

const GRANTS = {
  authorization_code: exchangeAuthorizationCode,
  refresh_token: exchangeRefreshToken,
} as const;

/** POST /api/oauth/token. Every answer, success or error, is Cache-Control: no-store. */
export function handleTokenRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    const context = requestContext(request);
    await authorizationServerSchool(context);
    const form = await readForm(request);
    const grantType = form.get("grant_type");
    if (!grantType) throw new InvalidRequestError("grant_type is required");
    if (!Object.hasOwn(GRANTS, grantType)) throw new UnsupportedGrantTypeError();
    const client = await authenticateClient(clientCredentials(request, form));
    if (!client.grantTypes.includes(grantType)) throw new UnauthorizedClientError(`This client may not use the ${grantType} grant`);
    // Codes and refresh tokens are redeemable only on the origin that issued them.
    const body = await GRANTS[grantType as keyof typeof GRANTS]({ client, form, issuer: context.origin, now: clockNow() });
    return jsonAnswer(body);
  });
}
