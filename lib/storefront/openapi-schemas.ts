// Wire shapes of the OAuth 2.0 / OpenID Connect endpoints, as the spec defines them. Written in zod
// and converted to OpenAPI 3.0 schemas, so the document is generated rather than hand-kept. These
// describe the contract; the OAuth implementation lives in lib/oauth. Response shapes are closed
// (.strict(): additionalProperties false): the integration suite validates every response it sees
// against them (tests/helpers/openapi-conformance.ts), so a field the server adds without
// documenting it fails there.
import { z } from "zod";

const unix = () => z.number().int().describe("Unix timestamp in seconds");

export const TokenResponse = z
  .object({
    access_token: z.string().describe("Bearer token"),
    token_type: z.literal("Bearer").describe("Always Bearer"),
    expires_in: z.number().int().describe("Lifetime in seconds, default 7200"),
    refresh_token: z.string().describe("Used to obtain a new access token; rotates on every use"),
    scope: z.string().describe("Space-separated granted scopes, possibly a subset of those requested"),
    created_at: unix().describe("Creation timestamp"),
    school_id: z.string().uuid().describe("Authorized school"),
    school_subdomain: z.string().describe("Subdomain of the authorized school"),
    id_token: z.string().optional().describe("OpenID Connect ID token (a JWT signed with the client's id_token_signed_response_alg, RS256 by default or ES256, kid in the header) whenever openid was granted, on refresh too"),
  })
  .strict();

export const OAuthError = z
  .object({
    error: z
      .string()
      .describe(
        "OAuth error code: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_token, invalid_client_metadata, invalid_redirect_uri",
      ),
    error_description: z.string().optional().describe("Human-readable explanation"),
  })
  .strict();

export const AuthorizationCodeGrant = z
  .object({
    grant_type: z.literal("authorization_code"),
    code: z.string().describe("Code from the callback"),
    redirect_uri: z.string().describe("Must match the authorization request"),
    client_id: z.string(),
    code_verifier: z.string().min(43).max(128).describe("PKCE verifier, plain text"),
    client_secret: z.string().optional().describe("Required for confidential clients (client_secret_post)"),
    client_assertion_type: z.literal("urn:ietf:params:oauth:client-assertion-type:jwt-bearer").optional().describe("private_key_jwt clients (RFC 7523)"),
    client_assertion: z.string().optional().describe("private_key_jwt: a JWT signed with the client's registered key (iss = sub = client_id, aud = issuer or token endpoint, exp at most 5 minutes ahead, unique jti)"),
  })
  ;

export const RefreshTokenGrant = z
  .object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().describe("A valid refresh token; replaying a rotated one yields invalid_grant"),
    client_id: z.string(),
    client_secret: z.string().optional().describe("Required for confidential clients"),
    client_assertion_type: z.literal("urn:ietf:params:oauth:client-assertion-type:jwt-bearer").optional().describe("private_key_jwt clients (RFC 7523)"),
    client_assertion: z.string().optional().describe("private_key_jwt: a JWT signed with the client's registered key"),
  })
  ;

export const RevocationRequest = z
  .object({
    token: z.string(),
    token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
    client_id: z.string(),
  })
  ;

export const IntrospectionRequest = z.object({ token: z.string(), client_id: z.string() });

export const IntrospectionResult = z
  .object({
    active: z.boolean().describe("The only field for an inactive or invalid token"),
    scope: z.string().optional().describe("Space-separated scopes of the token"),
    client_id: z.string().optional().describe("Client the token was issued to"),
    token_type: z.literal("Bearer").optional(),
    exp: unix().optional().describe("Expiry timestamp"),
    iat: unix().optional().describe("Issue timestamp"),
    sub: z.string().uuid().optional().describe("User the token acts for"),
    aud: z.string().optional().describe("Resource the token was issued for (RFC 8707), else the issuer"),
    iss: z.string().optional().describe("Origin that issued the token"),
    school_id: z.string().uuid().optional().describe("School the token is bound to"),
  })
  .strict();

export const UserInfo = z
  .object({
    sub: z.string().uuid().describe("User identifier"),
    name: z.string().optional().describe("With the profile scope"),
    picture: z.string().optional().describe("With the profile scope, when the member has an uploaded avatar"),
    email: z.string().optional().describe("With the email scope"),
    email_verified: z.boolean().optional().describe("With the email scope"),
    org_id: z.string().optional().describe("School identifier, when the token is bound to a school"),
    roles: z.array(z.string()).optional().describe("Role names, highest privilege first, when the token is bound to a school"),
  })
  .strict();

const authMethods = () => z.array(z.string()).describe("none (public clients), client_secret_basic, client_secret_post");

export const DiscoveryMetadata = z
  .object({
    issuer: z.string().describe("This origin"),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    token_endpoint_auth_methods_supported: authMethods(),
    revocation_endpoint: z.string(),
    revocation_endpoint_auth_methods_supported: authMethods(),
    introspection_endpoint: z.string(),
    introspection_endpoint_auth_methods_supported: authMethods(),
    registration_endpoint: z.string(),
    userinfo_endpoint: z.string(),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    prompt_values_supported: z.array(z.string()).describe("prompt values /oauth/authorize honours"),
    scopes_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean().describe("RFC 9207: the callback carries iss"),
    client_id_metadata_document_supported: z.boolean().describe("Client ID Metadata Documents are accepted as client_id"),
    service_documentation: z.string(),
    mcp_client_id: z.string().describe("Pre-registered public client for MCP clients"),
    jwks_uri: z.string().describe("The JSON Web Key Set that signs ID tokens"),
    end_session_endpoint: z.string().describe("OpenID Connect RP-Initiated Logout"),
    id_token_signing_alg_values_supported: z.array(z.string()).describe("RS256 (the default) and ES256 (clients registering id_token_signed_response_alg ES256)"),
    claim_types_supported: z.array(z.string()),
    claims_parameter_supported: z.boolean(),
    request_parameter_supported: z.boolean(),
    request_uri_parameter_supported: z.boolean(),
    token_endpoint_auth_signing_alg_values_supported: z.array(z.string()).describe("private_key_jwt assertion algorithms"),
    revocation_endpoint_auth_signing_alg_values_supported: z.array(z.string()).describe("private_key_jwt assertion algorithms"),
    introspection_endpoint_auth_signing_alg_values_supported: z.array(z.string()).describe("private_key_jwt assertion algorithms"),
    backchannel_logout_supported: z.boolean().describe("OpenID Connect Back-Channel Logout 1.0"),
    backchannel_logout_session_supported: z.boolean().describe("Logout tokens carry sid"),
  })
  .strict();

export const JsonWebKeySet = z
  .object({
    keys: z.array(
      z
        .object({
          kty: z.enum(["RSA", "EC"]),
          kid: z.string().describe("RFC 7638 thumbprint"),
          use: z.literal("sig"),
          alg: z.enum(["RS256", "ES256"]),
          n: z.string().optional(),
          e: z.string().optional(),
          crv: z.string().optional(),
          x: z.string().optional(),
          y: z.string().optional(),
        })
        .describe("A public signing key: public parameters only"),
    ),
  })
  .strict();

export const RegistrationRequest = z
  .object({
    client_name: z.string().describe("Matched against a known vendor platform"),
    redirect_uris: z.array(z.string()).optional(),
    grant_types: z.array(z.string()).optional().describe("Default [authorization_code, refresh_token]"),
    response_types: z.array(z.string()).optional().describe("Default [code]"),
    token_endpoint_auth_method: z.string().optional().describe("Default none (public client)"),
    id_token_signed_response_alg: z.enum(["RS256", "ES256"]).optional().describe("How ID tokens for this client are signed; default RS256. none and HMAC algorithms are refused (invalid_client_metadata)"),
  })
  ;

export const RegistrationResponse = z
  .object({
    client_id: z.string(),
    client_id_issued_at: unix().describe("When the client was registered"),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.string(),
    id_token_signed_response_alg: z.enum(["RS256", "ES256"]).describe("How ID tokens for this client are signed"),
    scope: z.string().describe("Space-separated"),
  })
  .strict();

export const ProtectedResourceMetadata = z
  .object({
    resource: z.string().describe("The MCP server: {origin}/mcp"),
    authorization_servers: z.array(z.string()).describe("This origin"),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
    resource_documentation: z.string(),
  })
  .strict();

export const McpServerCard = z
  .object({
    $schema: z.literal("https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json"),
    name: z.string().describe("Reverse-DNS name: the origin's host labels reversed, then /schoolhouse"),
    version: z.string(),
    title: z.string(),
    description: z.string(),
    websiteUrl: z.string(),
    remotes: z.array(
      z
        .object({
          type: z.literal("streamable-http"),
          url: z.string().describe("{origin}/mcp"),
          supportedProtocolVersions: z.array(z.string()),
          headers: z.array(z.object({ name: z.string(), description: z.string(), isRequired: z.boolean(), isSecret: z.boolean() }).strict()),
        })
        .strict(),
    ),
  })
  .strict();

/** A JSON-RPC 2.0 response: a result or an error for the request's id. */
export const JsonRpcResponse = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).strict().optional(),
  })
  .strict();

export const SCHEMAS = {
  TokenResponse,
  OAuthError,
  AuthorizationCodeGrant,
  RefreshTokenGrant,
  RevocationRequest,
  IntrospectionRequest,
  IntrospectionResult,
  UserInfo,
  DiscoveryMetadata,
  JsonWebKeySet,
  RegistrationRequest,
  RegistrationResponse,
  ProtectedResourceMetadata,
  McpServerCard,
  JsonRpcResponse,
};

/** OpenAPI 3.0 schema objects of the above, keyed by name (for components.schemas). */
export function componentSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, schema]) => {
      const json = z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
      delete json.$schema;
      return [name, json];
    }),
  );
}
