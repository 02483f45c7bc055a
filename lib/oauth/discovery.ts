import { env } from "../env";
import { SIGNING_ALGS } from "../oidc/key-store";
import { PROMPT_VALUES } from "./authorize";
import { CLIENT_ASSERTION_ALGS } from "./client-assertion";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "./clients";
import { handleOAuth, jsonAnswer } from "./http";
import { SUPPORTED_SCOPES } from "./scopes";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";
import type { PlainRequest, PlainResponse } from "../http/plain";

/** The pre-registered public client for MCP use (seeded), advertised as mcp_client_id. */
export const MCP_CLIENT_ID = "schoolhouse-mcp";
/** UserInfo's claims, and the ID token's own (lib/oidc/id-token.ts). */
export const CLAIMS_SUPPORTED = [
  "sub", "name", "picture", "email", "email_verified", "org_id", "roles",
  "iss", "aud", "exp", "iat", "auth_time", "nonce", "azp", "at_hash", "sid", "amr",
];
/** Where the other OpenID Connect endpoints live (jwks: lib/oidc/jwks-endpoint.ts; end-session: RP-Initiated Logout). */
export const JWKS_PATH = "/api/oauth/jwks";
export const END_SESSION_PATH = "/oauth/end-session";

/** `school`: the origin's school (null on the bare platform host), whose own CIMD setting narrows the deployment's. */
export function authorizationServerMetadata(issuer: string, school: { cimdAllowed: boolean } | null = null) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    revocation_endpoint: `${issuer}/api/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    introspection_endpoint: `${issuer}/api/oauth/introspect`,
    introspection_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    introspection_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    registration_endpoint: `${issuer}/api/oauth/register`,
    userinfo_endpoint: `${issuer}/api/oauth/userinfo`,
    // OpenID Connect Discovery 1.0 §3 (also valid RFC 8414 fields; both documents are this one).
    jwks_uri: `${issuer}${JWKS_PATH}`,
    end_session_endpoint: `${issuer}${END_SESSION_PATH}`,
    // Back-Channel Logout 1.0 §2.1: logout tokens to registered backchannel_logout_uri, with sid.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // RS256 for every client that registered no id_token_signed_response_alg (Core §15.1); ES256 for those that ask.
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    claim_types_supported: ["normal"],
    // Discovery's defaults would claim request_uri support: say what is not supported.
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    // OpenID Connect Discovery / Prompt Create: the prompt values /oauth/authorize honours.
    prompt_values_supported: [...PROMPT_VALUES],
    scopes_supported: SUPPORTED_SCOPES,
    subject_types_supported: ["public"],
    claims_supported: CLAIMS_SUPPORTED,
    authorization_response_iss_parameter_supported: true,
    // Only when some host's documents are accepted, and the school did not turn them off: otherwise
    // every CIMD client would be refused.
    client_id_metadata_document_supported: cimdEnabled() && (school?.cimdAllowed ?? true),
    service_documentation: `${issuer}/oauth/docs`,
    mcp_client_id: MCP_CLIENT_ID,
  };
}

function cimdEnabled(): boolean {
  const e = env();
  return e.OAUTH_CIMD_ALLOWED_HOSTS.length > 0 || e.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS;
}

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0): one document, on the requesting school's origin.
 */
export function handleDiscoveryRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    const context = requestContext(request);
    const { school } = await authorizationServerSchool(context);
    return jsonAnswer(authorizationServerMetadata(context.origin, school), { cache: "public, max-age=300", headers: { vary: "Host, X-Forwarded-Host, X-Forwarded-Proto" } });
  });
}
