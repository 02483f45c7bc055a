import { handleOAuth, jsonAnswer } from "../oauth/http";
import { JWKS_MAX_AGE_SECONDS } from "./key-store";
import { publicJwks } from "./keys";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "../oauth/context";
import type { PlainRequest, PlainResponse } from "../http/plain";

/** GET /api/oauth/jwks (discovery's jwks_uri): the deployment's published public keys, on every school origin. */
export function handleJwksRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    await authorizationServerSchool(requestContext(request));
    return jsonAnswer(await publicJwks(), { cache: `public, max-age=${JWKS_MAX_AGE_SECONDS}` });
  });
}
