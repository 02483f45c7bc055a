import { env } from "../env";
import { CIMD_FAILURE_TTL_SECONDS, CIMD_MAX_TTL_SECONDS } from "./cimd";
import { CLIENT_SECRET_OVERLAP_MS } from "./client-secret";
import { authorizationServerMetadata } from "./discovery";
import { issuerFor } from "./context";
import { SCOPE_DESCRIPTIONS } from "./scopes";
import { accessTokenTtlSeconds } from "./tokens";

/** GET /oauth/docs: the service_documentation named in discovery, as plain markdown. */
export function handleDocsRequest(request: Request): Response {
  const issuer = issuerFor(request);
  const m = authorizationServerMetadata(issuer);
  // Only what this configuration does (discovery says the same).
  const cimd = m.client_id_metadata_document_supported
    ? `- Other clients (a generic MCP client, for one) may use as their client_id an https Client ID Metadata Document on ${env().OAUTH_CIMD_ALLOWED_HOSTS.includes("*") ? "any public host" : "a host this server allows"};
  the consent page shows the document's host to the member. Documents are cached as their Cache-Control says (at most ${CIMD_MAX_TTL_SECONDS / 3600} hours); a document that failed is fetched again after ${CIMD_FAILURE_TTL_SECONDS} seconds.`
    : "- Client ID Metadata Documents are not accepted by this server.";
  const text = `# Schoolhouse OAuth 2.0

Authorization code flow with PKCE (S256 only), refresh token rotation, revocation (RFC 7009),
introspection (RFC 7662), discovery (RFC 8414) and OpenID Connect UserInfo.

- Discovery: ${issuer}/.well-known/oauth-authorization-server
- Authorize: ${m.authorization_endpoint}
- Token: ${m.token_endpoint} (client authentication: none, client_secret_basic, client_secret_post or
  private_key_jwt with a client assertion signed by a key the client registered, inline or at its jwks_uri)
- Revoke: ${m.revocation_endpoint}
- Introspect: ${m.introspection_endpoint}
- UserInfo: ${m.userinfo_endpoint}
- Registration (known vendor platforms only): ${m.registration_endpoint}
- OpenID Connect: discovery at ${issuer}/.well-known/openid-configuration, keys at ${m.jwks_uri},
  RP-Initiated Logout at ${m.end_session_endpoint}. ID tokens are signed ${m.id_token_signing_alg_values_supported[0]}, or
  ${m.id_token_signing_alg_values_supported.slice(1).join(", ")} for a client registered with that \`id_token_signed_response_alg\`.
- Pre-registered public client for MCP: \`${m.mcp_client_id}\`
- Confidential clients get their client_id and a generated secret from the operator; after a secret
  rotation the previous secret keeps working for ${CLIENT_SECRET_OVERLAP_MS / 3_600_000} hours.
${cimd}

## MCP server

- Endpoint: ${issuer}/mcp (Streamable HTTP, stateless; add it to an MCP client and sign in)
- Protected resource metadata (RFC 9728): ${issuer}/.well-known/oauth-protected-resource/mcp
- Tokens must be issued for this resource: send \`resource=${issuer}/mcp\` (RFC 8707) in the
  authorization and token requests. An Admin API key is also accepted as a bearer credential.

## Scopes

${Object.entries(SCOPE_DESCRIPTIONS)
  .map(([s, d]) => `- \`${s}\`: ${d}`)
  .join("\n")}

Access tokens last ${accessTokenTtlSeconds()} seconds. Refresh tokens rotate on every use.
Codes and tokens work only at the address that issued them (${issuer}): use this school's own
endpoints for the token, UserInfo, introspection, revocation and /mcp.

\`prompt\` at the authorize endpoint: \`none\` (answer without any page: login_required,
interaction_required or consent_required), \`login\` (sign in again first), \`consent\` (ask
again even if allowed before).
`;
  return new Response(text, { headers: { "content-type": "text/markdown; charset=utf-8", "cache-control": "public, max-age=300" } });
}
