import { handleOAuth, jsonResponse } from "../oauth/http";
import { JWKS_MAX_AGE_SECONDS } from "./key-store";
import { publicJwks } from "./keys";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "../oauth/context";

/** GET /api/oauth/jwks (discovery's jwks_uri): the deployment's published public keys, on every school origin. */
export function handleJwksRequest(request: Request): Promise<Response> {
  return handleOAuth(async () => {
    await authorizationServerSchool(requestContext(request));
    return jsonResponse(await publicJwks(), { cache: `public, max-age=${JWKS_MAX_AGE_SECONDS}` });
  });
}
