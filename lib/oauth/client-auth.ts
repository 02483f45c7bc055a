import { hashSecret, safeEqual } from "../credentials/secret";
import { findClient, type OAuthClientInfo } from "./clients";
import { InvalidClientError, InvalidRequestError } from "./errors";

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/**
 * Authenticates the client of a token, revocation or introspection request: public clients
 * (method none) send only client_id; confidential clients (client_secret_post) must send the
 * right secret. A public client that sends a secret is refused too: it was not issued one.
 */
export async function authenticateClient(creds: ClientCredentials): Promise<OAuthClientInfo> {
  if (!creds.clientId) throw new InvalidRequestError("client_id is required");
  const client = await findClient(creds.clientId);
  // The secret is hashed even for an unknown client so timing does not reveal which ids exist.
  const presented = creds.clientSecret === undefined ? null : hashSecret(creds.clientSecret);
  if (!client) throw new InvalidClientError("Unknown client");
  if (client.tokenEndpointAuthMethod === "client_secret_post") {
    if (presented === null || !client.clientSecretHash || !safeEqual(presented, client.clientSecretHash)) {
      throw new InvalidClientError("Client authentication failed: client_secret is missing or wrong");
    }
    return client;
  }
  if (presented !== null) throw new InvalidClientError("This client is public (token_endpoint_auth_method none) and has no client_secret");
  return client;
}
