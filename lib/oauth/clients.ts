import { env } from "../env";
import { DEFAULT_SIGNING_ALG, isSigningAlg, type SigningAlg } from "../oidc/key-store";
import { findClientRow } from "./client-cache";
import { fetchClientMetadata, isMetadataDocumentClientId, type CimdPolicy } from "./cimd";
import { SUPPORTED_SCOPES, formatScope } from "./scopes";

/** A client as the endpoints see it, whether registered in the database or described by a metadata document. */
export interface OAuthClientInfo {
  clientId: string;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** Salted hashes of the issued secrets (lib/oauth/client-secret.ts); the previous one only until it expires. */
  clientSecretHash: string | null;
  previousClientSecretHash: string | null;
  previousClientSecretExpiresAt: Date | null;
  /** Scopes the client may be granted. */
  scope: string;
  /** Null: usable with every school. */
  schoolId: string | null;
  isMetadataDocument: boolean;
  /** private_key_jwt: the registered public keys, inline or at a URI. */
  jwks: unknown;
  jwksUri: string | null;
  /** RP-Initiated Logout: where the member may be sent back after signing out (exact match). */
  postLogoutRedirectUris: string[];
  /** Back-Channel Logout: where logout tokens are posted. */
  backchannelLogoutUri: string | null;
  /** id_token_signed_response_alg: how this client's ID tokens are signed (RS256 unless it registered ES256). */
  idTokenSignedResponseAlg: SigningAlg;
}

export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
const isAuthMethod = (v: string): v is TokenEndpointAuthMethod => (TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(v);

export function cimdPolicy(): CimdPolicy {
  const e = env();
  return { allowedHosts: e.OAUTH_CIMD_ALLOWED_HOSTS, allowLoopbackForTests: e.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS };
}

/**
 * The client for a client_id, or null when none exists. A metadata document URL is fetched (and
 * may throw ClientMetadataError with the reason); registered clients come from the database through
 * the process cache (lib/oauth/client-cache.ts: a changed or revoked client holds within its bound).
 */
export async function findClient(clientId: string | null | undefined): Promise<OAuthClientInfo | null> {
  if (!clientId || clientId.length > 2048) return null;
  if (isMetadataDocumentClientId(clientId)) {
    const doc = await fetchClientMetadata({ clientId, policy: cimdPolicy() });
    return {
      clientId,
      name: doc.clientName,
      redirectUris: doc.redirectUris,
      grantTypes: doc.grantTypes,
      responseTypes: doc.responseTypes,
      tokenEndpointAuthMethod: "none",
      clientSecretHash: null,
      previousClientSecretHash: null,
      previousClientSecretExpiresAt: null,
      scope: doc.scope ? formatScope(doc.scope.split(" ").filter((s) => SUPPORTED_SCOPES.includes(s))) : formatScope(SUPPORTED_SCOPES),
      schoolId: null,
      isMetadataDocument: true,
      jwks: null,
      jwksUri: null,
      postLogoutRedirectUris: doc.postLogoutRedirectUris,
      backchannelLogoutUri: null,
      idTokenSignedResponseAlg: doc.idTokenSignedResponseAlg,
    };
  }
  const row = await findClientRow(clientId);
  // A revoked client is unknown everywhere (its grants and tokens were revoked with it).
  if (!row || row.revokedAt) return null;
  return {
    clientId: row.clientId,
    name: row.name,
    redirectUris: row.redirectUris,
    grantTypes: row.grantTypes,
    responseTypes: row.responseTypes,
    tokenEndpointAuthMethod: isAuthMethod(row.tokenEndpointAuthMethod) ? row.tokenEndpointAuthMethod : "none",
    clientSecretHash: row.clientSecretHash,
    previousClientSecretHash: row.previousClientSecretHash,
    previousClientSecretExpiresAt: row.previousClientSecretExpiresAt,
    scope: row.scope,
    schoolId: row.schoolId,
    isMetadataDocument: false,
    jwks: row.jwks,
    jwksUri: row.jwksUri,
    postLogoutRedirectUris: row.postLogoutRedirectUris,
    backchannelLogoutUri: row.backchannelLogoutUri,
    // The column only ever holds a supported alg (registration refuses others); a stray value signs RS256.
    idTokenSignedResponseAlg: isSigningAlg(row.idTokenSignedResponseAlg) ? row.idTokenSignedResponseAlg : DEFAULT_SIGNING_ALG,
  };
}
