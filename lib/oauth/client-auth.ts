import { now } from "../clock";
import { securityEvent } from "../security/events";
import { verifyClientAssertion } from "./client-assertion";
import { matchClientSecret } from "./client-secret";
import { findClient, type OAuthClientInfo } from "./clients";
import { InvalidClientError, InvalidRequestError } from "./errors";

const NO_SECRETS = { clientSecretHash: null, previousClientSecretHash: null, previousClientSecretExpiresAt: null };

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** private_key_jwt: a signed client assertion, and the audiences it may name. */
  clientAssertion?: string;
  audiences?: string[];
}

/**
 * Authenticates the client of a token, revocation or introspection request: public clients
 * (method none) send only client_id; confidential clients must send the right secret, the current
 * one or, for CLIENT_SECRET_OVERLAP_MS after a rotation, the previous one (salted hashes compared
 * in constant time). A public client that sends a secret is refused too: it was not issued one.
 * A private_key_jwt client must send a client assertion signed by one of its registered keys, and
 * only such a client may (lib/oauth/client-assertion.ts).
 */
export async function authenticateClient(creds: ClientCredentials): Promise<OAuthClientInfo> {
  if (!creds.clientId) throw new InvalidRequestError("client_id is required");
  const client = await findClient(creds.clientId);
  const presented = creds.clientSecret ?? null;
  if (!client) {
    // The secret is hashed (twice, like a known client's) even for an unknown client so timing does
    // not reveal which ids exist.
    if (presented !== null) matchClientSecret(presented, NO_SECRETS, now());
    throw failed(creds.clientId, "unknown_client", "Unknown client");
  }
  if (client.tokenEndpointAuthMethod === "private_key_jwt") {
    if (creds.clientAssertion === undefined) throw failed(client.clientId, "assertion_missing", "This client authenticates with private_key_jwt: send client_assertion and client_assertion_type");
    await verifyClientAssertion({ client, assertion: creds.clientAssertion, audiences: creds.audiences ?? [], now: now() });
    return client;
  }
  if (creds.clientAssertion !== undefined) throw failed(client.clientId, "assertion_not_registered", "This client does not authenticate with private_key_jwt");
  // A confidential client may authenticate with client_secret_basic or client_secret_post: RFC 6749
  // §2.3.1 requires servers to accept Basic, whatever method the client registered.
  if (client.tokenEndpointAuthMethod !== "none") {
    if (presented === null || !matchClientSecret(presented, client, now())) {
      throw failed(client.clientId, "wrong_secret", "Client authentication failed: client_secret is missing or wrong");
    }
    return client;
  }
  if (presented !== null) throw failed(client.clientId, "secret_for_public_client", "This client is public (token_endpoint_auth_method none) and has no client_secret");
  return client;
}

function failed(clientId: string, reason: string, message: string): InvalidClientError {
  securityEvent("oauth.client_auth_failed", { client_id: clientId.slice(0, 200), reason });
  return new InvalidClientError(message);
}
