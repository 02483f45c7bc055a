import { authenticateClient } from "./client-auth";
import type { OAuthClientInfo } from "./clients";
import { InvalidRequestError } from "./errors";
import { clientCredentials, readForm } from "./http";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";
import type { PlainRequest } from "../http/plain";

export interface TokenManagementRequest {
  form: Map<string, string>;
  token: string;
  client: OAuthClientInfo;
}

/**
 * The shared front of revocation (RFC 7009) and introspection (RFC 7662): a school host, a
 * form-encoded body with `token`, and an authenticated client. Anything wrong is an OAuth error.
 */
export async function readTokenManagementRequest(request: PlainRequest): Promise<TokenManagementRequest> {
  await authorizationServerSchool(requestContext(request));
  const form = await readForm(request);
  const token = form.get("token");
  if (!token) throw new InvalidRequestError("token is required");
  const client = await authenticateClient(clientCredentials(request, form));
  return { form, token, client };
}
