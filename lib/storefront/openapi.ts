// The OpenAPI 3.0 document served at /openapi.json, generated from the storefront route table and
// the OAuth wire schemas, with servers[].url set to the requested origin.
import { errorMarkdown } from "./error-document";
import { componentSchemas } from "./openapi-schemas";
import { hasSlug, SLUG_MAX_LENGTH, SLUG_PATTERN, STOREFRONT_ROUTES, type StorefrontRoute } from "./routes";

type Obj = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Obj) => ({ "application/json": { schema } });
const textPlain = { "text/plain": { schema: { type: "string" } } };

const textHeaders = {
  ETag: { $ref: "#/components/headers/ETag" },
  "Cache-Control": { $ref: "#/components/headers/CacheControl" },
  Vary: { $ref: "#/components/headers/Vary" },
  "X-Markdown-Tokens": { $ref: "#/components/headers/MarkdownTokens" },
  "Content-Signal": { $ref: "#/components/headers/ContentSignal" },
};

const MARKDOWN_EXAMPLE = `---
type: "course"
title: "Intro to SQL"
description: "Query real datasets with confidence."
url: "https://school.example/courses/intro-to-sql"
markdown_url: "https://school.example/api/md/courses/intro-to-sql"
slug: "intro-to-sql"
updated: "2026-01-15T09:00:00.000Z"
price: "49.00"
currency: "USD"
---

# Intro to SQL

Query real datasets with confidence.

- **Price:** 49.00 USD
`;

// The error documents the routes send, made by the same function (lib/storefront/error-document.ts).
const EXAMPLE_ORIGIN = "https://school.example";
const ERROR_EXAMPLES = {
  400: errorMarkdown({ origin: EXAMPLE_ORIGIN, status: 400, message: "Malformed slug: slugs are lower-case letters and digits separated by single hyphens." }),
  404: errorMarkdown({ origin: EXAMPLE_ORIGIN, status: 404, message: "No published course has the slug nope." }),
  503: errorMarkdown({ origin: EXAMPLE_ORIGIN, status: 503, message: "The service's database is unavailable; retry in 5 seconds.", retryAfter: 5 }),
} as const;
const retryAfter = { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } } };
const UNAVAILABLE = "The database is unavailable (and no copy was built before): retry after Retry-After seconds";

const markdownWith = (example: string) => ({ "text/markdown": { schema: { type: "string", description: "YAML frontmatter, then markdown" }, example } });
const notModified = { description: "Not modified (If-None-Match matched the ETag); no body", headers: { ETag: { $ref: "#/components/headers/ETag" } } };

function markdownOperation(route: StorefrontRoute, method: "get" | "head"): Obj {
  const slug = hasSlug(route);
  const tag = "Storefront";
  const ok =
    method === "get"
      ? { description: "The markdown document", headers: { ...textHeaders, Link: { $ref: "#/components/headers/CanonicalLink" } }, content: markdownWith(MARKDOWN_EXAMPLE) }
      : { description: "Headers of the markdown document, no body", headers: textHeaders };
  const error = (status: keyof typeof ERROR_EXAMPLES, description: string) =>
    method === "get"
      ? { description, ...(status === 503 ? { headers: retryAfter } : {}), content: markdownWith(ERROR_EXAMPLES[status]) }
      : { description: `${description}; no body`, ...(status === 503 ? { headers: retryAfter } : {}) };
  return {
    tags: [tag],
    operationId: `${method}Markdown${route.kind
      .split("_")
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join("")}`,
    summary: `${route.summary} as markdown`,
    description: `Markdown twin of the HTML page ${route.htmlPath}. Only published content appears. Requesting the HTML page with \`Accept: text/markdown\` returns the same document. No session needed.`,
    parameters: [...(slug ? [{ $ref: "#/components/parameters/Slug" }] : []), { $ref: "#/components/parameters/IfNoneMatch" }],
    responses: {
      "200": ok,
      "304": notModified,
      ...(slug ? { "400": error(400, "Malformed slug") } : {}),
      "404": error(404, slug ? "No published item has this slug" : "No school at this address"),
      "503": error(503, UNAVAILABLE),
    },
  };
}

function storefrontPaths(): Obj {
  const paths: Obj = {};
  for (const route of STOREFRONT_ROUTES) {
    paths[route.markdownPath] = { get: markdownOperation(route, "get"), head: markdownOperation(route, "head") };
  }
  const textOperation = (method: "get" | "head", operationId: string, summary: string, description: string, o: { type?: string; example?: string; params?: Obj[] } = {}) => ({
    tags: ["Storefront"],
    operationId: method === "get" ? operationId : operationId.replace(/^get/, "head"),
    summary: method === "get" ? summary : `${summary} (headers only)`,
    description,
    parameters: [...(o.params ?? []), { $ref: "#/components/parameters/IfNoneMatch" }],
    responses: {
      "200":
        method === "get"
          ? { description: summary, headers: textHeaders, content: { [o.type ?? "text/plain"]: { schema: { type: "string" }, ...(o.example ? { example: o.example } : {}) } } }
          : { description: `${summary}; no body`, headers: textHeaders },
      "304": notModified,
      "404": method === "get" ? { description: "No school at this address (or no such part)", content: textPlain } : { description: "No school at this address; no body" },
      "503": method === "get" ? { description: UNAVAILABLE, headers: retryAfter, content: textPlain } : { description: `${UNAVAILABLE}; no body`, headers: retryAfter },
    },
  });
  const textFile = (operationId: string, summary: string, description: string, o: { type?: string; example?: string; params?: Obj[] } = {}) => ({
    get: textOperation("get", operationId, summary, description, o),
    head: textOperation("head", operationId, summary, description, o),
  });
  paths["/llms.txt"] = textFile("getLlmsTxt", "Linked index of content and developer resources", "llmstxt.org format: markdown links to every public item and to the developer/agent resources.");
  paths["/llms-full.txt"] = textFile(
    "getLlmsFullTxt",
    "All public content in one document, or the index of its parts",
    "Every public item's markdown, each starting with its title and source URL. Past 90,000 characters it is an index (llms.txt form) linking /llms-full/{part}.txt.",
  );
  paths["/llms-full/{part}.txt"] = textFile("getLlmsFullPart", "One part of llms-full.txt", "Whole documents of one section (pages, courses, courses-2, …), at most 90,000 characters; listed in /llms-full.txt when it is split.", {
    params: [{ name: "part", in: "path", required: true, schema: { type: "string", pattern: "^[a-z0-9-]{1,64}$" }, example: "courses-2" }],
  });
  paths["/robots.txt"] = textFile("getRobotsTxt", "Crawler rules", "The school's Content-Signal (search, ai-input, ai-train) and the crawler rules that follow from it.", {
    example: "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\nDisallow: /login\n",
  });
  paths["/sitemap.xml"] = textFile("getSitemap", "Sitemap of every public page", "sitemaps.org 0.9; empty for enterprise-training schools.", { type: "application/xml" });
  paths["/admin/graphql/schema.graphql"] = textFile("getAdminSchema", "The Admin API's GraphQL SDL", "Readable without an API key; requests to /admin/graphql need one.");
  paths["/openapi.json"] = {
    get: {
      tags: ["Storefront"],
      operationId: "getOpenApi",
      summary: "This OpenAPI 3.0 document",
      responses: {
        "200": {
          description: "OpenAPI 3.0 document; servers[].url is the requested origin",
          content: json({ type: "object", required: ["openapi", "info", "paths"], properties: { openapi: { type: "string", pattern: "^3\\.0\\.\\d+$" }, info: { type: "object" }, paths: { type: "object" } } }),
        },
        "304": notModified,
        "404": { description: "No school at this address", content: json(ref("OAuthError")) },
        "503": { description: `${UNAVAILABLE} (temporarily_unavailable)`, headers: retryAfter, content: json(ref("OAuthError")) },
      },
    },
    head: {
      tags: ["Storefront"],
      operationId: "headOpenApi",
      summary: "This OpenAPI 3.0 document (headers only)",
      responses: {
        "200": { description: "Headers of the document; no body" },
        "304": notModified,
        "404": { description: "No school at this address; no body" },
        "503": { description: `${UNAVAILABLE}; no body`, headers: retryAfter },
      },
    },
  };
  return paths;
}

/** The MCP server and its RFC 9728 metadata; the protocol itself is JSON-RPC, described by MCP, not here. */
function mcpPaths(): Obj {
  return {
    "/mcp": {
      post: {
        tags: ["MCP"],
        operationId: "postMcp",
        summary: "Model Context Protocol server (Streamable HTTP, stateless)",
        description:
          "One JSON-RPC message per request (MCP revisions 2025-06-18 and 2025-11-25). Needs `Authorization: Bearer` with an access token issued for this resource (RFC 8707 `resource` = this URL) or an Admin API key. Tools: search_catalog, get_page, list_membership_plans, get_my_profile, list_my_subscriptions, list_my_enrollments, list_subscriptions, create_subscription, update_subscription, cancel_subscription, pause_subscription, resume_subscription, refund_payment, enroll_student.",
        security: [{ oauth2: [] }],
        requestBody: { required: true, content: json({ type: "object", description: "A JSON-RPC 2.0 request or notification" }) },
        responses: {
          "200": { description: "JSON-RPC response (a batch is answered with an array of them)", content: json({ oneOf: [ref("JsonRpcResponse"), { type: "array", items: ref("JsonRpcResponse") }] }) },
          "202": { description: "Notification accepted" },
          "400": { description: "Malformed JSON-RPC (JSON-RPC error object)", content: json(ref("JsonRpcResponse")) },
          "401": { description: "Missing or invalid credential; WWW-Authenticate names the resource metadata (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "403": { description: "insufficient_scope; WWW-Authenticate names the scopes to request (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "404": { description: "No school is served at this address (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "406": { description: "Accept must list both application/json and text/event-stream (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "413": { description: "The body is larger than 1 MiB (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "415": { description: "Content-Type must be application/json (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "429": { description: "Rate limited: Retry-After and RateLimit headers (JSON-RPC error)", content: json(ref("JsonRpcResponse")) },
          "503": { description: `${UNAVAILABLE} (JSON-RPC error)`, headers: retryAfter, content: json(ref("JsonRpcResponse")) },
        },
      },
    },
    "/.well-known/oauth-protected-resource/mcp": {
      get: {
        tags: ["MCP"],
        operationId: "getMcpResourceMetadata",
        summary: "OAuth protected resource metadata of /mcp (RFC 9728)",
        security: [],
        responses: {
          "200": { description: "resource, authorization_servers, scopes_supported, bearer_methods_supported", content: json(ref("ProtectedResourceMetadata")) },
          "404": oauthError("not_found: no school is served at this address"),
        },
      },
    },
    "/.well-known/mcp/server-card.json": {
      get: {
        tags: ["MCP"],
        operationId: "getMcpServerCard",
        summary: "MCP Server Card of /mcp (SEP-2127)",
        description: "Name, Streamable HTTP endpoint, protocol versions and the Authorization header of the MCP server, for clients before they connect. Sent as application/mcp-server-card+json when the client asks for it.",
        security: [],
        responses: {
          "200": { description: "The server card", content: { "application/json": { schema: ref("McpServerCard") }, "application/mcp-server-card+json": { schema: ref("McpServerCard") } } },
          "404": oauthError("not_found: no school is served at this address"),
        },
      },
    },
  };
}

const form = (schema: Obj) => ({ required: true, content: { "application/x-www-form-urlencoded": { schema } } });
const oauthError = (description: string) => ({ description, content: json(ref("OAuthError")) });

function oauthPaths(): Obj {
  const query = (name: string, required: boolean, description: string, schema: Obj = { type: "string" }) => ({ name, in: "query", required, description, schema });
  const userinfo = (method: "get" | "post") => ({
    tags: ["OpenID Connect"],
    operationId: method === "get" ? "getUserInfo" : "postUserInfo",
    summary: "Identity claims of the token's user (OpenID Connect Core 1.0 section 5.3)",
    description: "Requires a Bearer access token that includes the openid scope. Claims depend on the granted scopes.",
    security: [{ bearerAuth: [] }],
    responses: {
      "200": { description: "Claims", content: json(ref("UserInfo")) },
      "400": oauthError("invalid_request: malformed Authorization header"),
      "401": oauthError("invalid_token: missing, expired or revoked token"),
      "403": oauthError("invalid_scope: the token lacks openid"),
    },
  });
  return {
    "/oauth/authorize": {
      get: {
        tags: ["OAuth 2.0"],
        operationId: "authorize",
        summary: "Start the authorization code flow (PKCE S256 required)",
        description:
          "Redirects to login and consent, then to redirect_uri with `code` and `state`, or with `error`, `error_description` and `state`. An unknown client or unregistered redirect_uri is answered with an error page instead of a redirect.",
        parameters: [
          query("response_type", true, "Must be code", { type: "string", enum: ["code"] }),
          query("client_id", true, "Client identifier"),
          query("redirect_uri", true, "Must exactly match a registered redirect URI"),
          query("scope", true, "Space-separated scopes"),
          query("state", false, "Opaque CSRF value, returned unchanged (recommended)"),
          query("code_challenge", true, "base64url SHA-256 hash of the code_verifier"),
          query("code_challenge_method", true, "Must be S256", { type: "string", enum: ["S256"] }),
          query("school_id", false, "Preselects a school and skips the school picker if valid", { type: "string", format: "uuid" }),
          query("nonce", false, "OpenID Connect: echoed exactly in the ID token (at most 512 characters)"),
          query("max_age", false, "OpenID Connect: seconds since the member's sign-in after which they sign in again", { type: "integer", minimum: 0 }),
          query("prompt", false, "none, login or consent (space-separated; none alone)"),
        ],
        responses: {
          "303": { description: "Redirect to login, consent, or the client's redirect_uri", headers: { Location: { schema: { type: "string" } } } },
          "400": { description: "Invalid client or redirect_uri (HTML error page, no redirect)", content: { "text/html": { schema: { type: "string" } } } },
          // A browser endpoint: it answers redirects and error pages, never a 2XX.
          default: { description: "Any other error (too large, unavailable): an HTML error page", content: { "text/html": { schema: { type: "string" } } } },
        },
      },
    },
    "/api/oauth/token": {
      post: {
        tags: ["OAuth 2.0"],
        operationId: "token",
        summary: "Exchange an authorization code or a refresh token",
        description: "Every successful refresh returns a new refresh_token and revokes the previous one immediately.",
        requestBody: form({ oneOf: [ref("AuthorizationCodeGrant"), ref("RefreshTokenGrant")] }),
        responses: {
          "200": { description: "Tokens", content: json(ref("TokenResponse")) },
          "400": oauthError("invalid_request, invalid_grant, unauthorized_client or unsupported_grant_type"),
          "401": oauthError("invalid_client: client authentication failed"),
        },
      },
    },
    "/api/oauth/revoke": {
      post: {
        tags: ["OAuth 2.0"],
        operationId: "revoke",
        summary: "Revoke a token (RFC 7009)",
        description: "Always 200 for a well-formed request, also for an already revoked or invalid token.",
        requestBody: form(ref("RevocationRequest")),
        responses: {
          "200": {
            description: "Revoked (or nothing to revoke): an empty JSON object",
            content: { "application/json": { schema: { type: "object", additionalProperties: false, maxProperties: 0 }, example: {} } },
          },
          "400": oauthError("invalid_request: missing parameter"),
          "401": oauthError("invalid_client"),
        },
      },
    },
    "/api/oauth/introspect": {
      post: {
        tags: ["OAuth 2.0"],
        operationId: "introspect",
        summary: "Token metadata (RFC 7662)",
        requestBody: form(ref("IntrospectionRequest")),
        responses: {
          "200": { description: "Introspection result", content: json(ref("IntrospectionResult")) },
          "400": oauthError("invalid_request: missing parameter"),
          "401": oauthError("invalid_client"),
        },
      },
    },
    "/api/oauth/userinfo": { get: userinfo("get"), post: userinfo("post") },
    "/.well-known/oauth-authorization-server": {
      get: {
        tags: ["OAuth 2.0"],
        operationId: "discovery",
        summary: "Authorization server metadata (RFC 8414)",
        responses: {
          "200": { description: "Metadata; endpoint values are absolute addresses of this origin", content: json(ref("DiscoveryMetadata")) },
          "404": oauthError("not_found: no school is served at this address"),
        },
      },
    },
    "/.well-known/openid-configuration": {
      get: {
        tags: ["OpenID Connect"],
        operationId: "openIdConfiguration",
        summary: "OpenID Provider metadata (OpenID Connect Discovery 1.0): the same document as RFC 8414's",
        responses: {
          "200": { description: "Metadata; endpoint values are absolute addresses of this origin", content: json(ref("DiscoveryMetadata")) },
          "404": oauthError("not_found: no school is served at this address"),
        },
      },
    },
    "/api/oauth/jwks": {
      get: {
        tags: ["OpenID Connect"],
        operationId: "jwks",
        summary: "The public keys ID tokens are signed with (jwks_uri)",
        description: "The same set on every school origin; a new key appears here an hour before it signs.",
        responses: {
          "200": { description: "JSON Web Key Set", content: json(ref("JsonWebKeySet")) },
          "404": oauthError("not_found: no school is served at this address"),
        },
      },
    },
    "/oauth/end-session": (() => {
      const params = [
        query("id_token_hint", false, "An ID token this school issued to the client (an expired one is accepted); when it names this browser's session, no confirmation is asked"),
        query("client_id", false, "The client; must be an audience of id_token_hint when both are sent"),
        query("post_logout_redirect_uri", false, "Where to send the member afterwards: exactly one of the client's registered post_logout_redirect_uris"),
        query("state", false, "Returned unchanged on post_logout_redirect_uri"),
      ];
      const operation = (method: "get" | "post") => ({
        tags: ["OpenID Connect"],
        operationId: method === "get" ? "endSession" : "endSessionPost",
        summary: "RP-Initiated Logout 1.0 (end_session_endpoint)",
        description:
          "Ends the member's session on this school's address and sends Back-Channel Logout tokens to the apps it signed in to. Without a matching id_token_hint the member confirms on /oauth/logout first. A refused request (invalid hint, unregistered post_logout_redirect_uri) is an HTML error page, never a redirect.",
        ...(method === "get" ? { parameters: params } : { requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: Object.fromEntries(params.map((p) => [p.name, { type: "string" }])) } } } } }),
        responses: {
          "303": { description: "To post_logout_redirect_uri (with state), to the confirmation page, or to the signed-out page", headers: { Location: { schema: { type: "string" } } } },
          "400": { description: "Refused request (HTML error page naming the reason)", content: { "text/html": { schema: { type: "string" } } } },
          // Like /oauth/authorize, it never answers 2XX: every other refusal is an HTML page too.
          default: {
            description: "Any other refusal (403: the confirmation form's CSRF token is missing or wrong; 503: unavailable): an HTML error page",
            content: { "text/html": { schema: { type: "string" } } },
          },
        },
      });
      return { get: operation("get"), post: operation("post") };
    })(),
    "/api/oauth/register": {
      post: {
        tags: ["OAuth 2.0"],
        operationId: "register",
        summary: "Client credentials for pre-registered vendor platforms",
        description: "Not open dynamic registration: an unrecognized client_name is refused with invalid_client_metadata. No client_secret is returned.",
        requestBody: { required: true, content: json(ref("RegistrationRequest")) },
        responses: {
          "201": { description: "Registered client", content: json(ref("RegistrationResponse")) },
          "400": oauthError("invalid_client_metadata (unknown client_name, malformed body) or invalid_redirect_uri"),
        },
      },
    },
  };
}

/** Endpoints that read a body (16 KiB at most) and answer OAuth errors: 413 past the limit. */
const OAUTH_BODY_OPERATIONS = new Set(["token", "revoke", "introspect", "register"]);
/** Endpoints answering JSON OAuth errors, so a database outage as temporarily_unavailable. */
const OAUTH_JSON_OPERATIONS = new Set([...OAUTH_BODY_OPERATIONS, "getUserInfo", "postUserInfo", "discovery", "getMcpResourceMetadata", "getMcpServerCard"]);

/** Client authentication of the token, revocation and introspection endpoints: none (public clients) or a secret. */
const CLIENT_AUTH = [{}, { clientSecretBasic: [] }];
const CLIENT_AUTH_OPERATIONS = new Set(["token", "revoke", "introspect"]);

/**
 * Every operation states its security (Redocly's security-defined rule): public ones `[]` (no
 * credential), the OAuth endpoints their client authentication; the MCP and UserInfo operations
 * set theirs where they are built.
 */
function withSecurity(paths: Obj): Obj {
  for (const item of Object.values(paths) as Obj[]) {
    for (const op of Object.values(item) as Obj[]) {
      const id = op.operationId as string;
      op.security ??= CLIENT_AUTH_OPERATIONS.has(id) ? CLIENT_AUTH : [];
      const responses = op.responses as Obj;
      if (OAUTH_BODY_OPERATIONS.has(id)) responses["413"] ??= oauthError("invalid_request (invalid_client_metadata for registration): the body is larger than 16 KiB");
      if (OAUTH_JSON_OPERATIONS.has(id)) responses["503"] ??= { ...oauthError(`temporarily_unavailable: ${UNAVAILABLE}`), headers: retryAfter };
    }
  }
  return paths;
}

/** The OpenAPI 3.0 document for a request origin (scheme://host[:port]). */
export function buildOpenApi(o: { origin: string; schoolName: string }): Obj {
  return {
    openapi: "3.0.3",
    info: {
      title: `${o.schoolName}: storefront content and OAuth API`,
      version: "1.0.0",
      // No open licence: what anyone may do with the school's content is its Content-Signal.
      license: { name: "The school's content signals (robots.txt)", url: `${o.origin}/robots.txt` },
      description:
        "The storefront's public catalog as markdown (YAML frontmatter), llms.txt, and the OAuth 2.0 authorization server with OpenID Connect UserInfo. Storefront endpoints need no session. Agents can use the MCP server at /mcp. The Admin GraphQL API (preview) is documented by its GraphiQL playground at /admin/graphql.",
    },
    servers: [{ url: o.origin }],
    tags: [
      { name: "Storefront", description: "Public content as markdown" },
      { name: "OAuth 2.0", description: "Authorization code grant with PKCE, refresh tokens, revocation, introspection, discovery" },
      { name: "OpenID Connect", description: "ID tokens, UserInfo, discovery, signing keys" },
      { name: "MCP", description: "Model Context Protocol server for agents at /mcp" },
    ],
    paths: withSecurity({ ...storefrontPaths(), ...oauthPaths(), ...mcpPaths() }),
    components: {
      schemas: componentSchemas(),
      parameters: {
        Slug: {
          name: "slug",
          in: "path",
          required: true,
          description: "Item slug: lower-case letters and digits separated by single hyphens",
          schema: { type: "string", pattern: SLUG_PATTERN, maxLength: SLUG_MAX_LENGTH },
        },
        IfNoneMatch: { name: "If-None-Match", in: "header", required: false, description: "ETag from an earlier response", schema: { type: "string" } },
      },
      headers: {
        ETag: { description: "Strong validator of the body", schema: { type: "string" } },
        CacheControl: { description: "Caching policy", schema: { type: "string" } },
        Vary: { description: "Request headers the response depends on", schema: { type: "string" } },
        MarkdownTokens: { description: "Estimated token count of the body (about 4 characters per token)", schema: { type: "integer" } },
        ContentSignal: {
          description: "The school's content signals (contentsignals.org)",
          schema: { type: "string" },
          example: "search=yes, ai-input=yes, ai-train=no",
        },
        CanonicalLink: { description: "The HTML page: `<url>; rel=\"canonical\"; type=\"text/html\"`", schema: { type: "string" } },
      },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "OAuth 2.0 access token" },
        clientSecretBasic: {
          type: "http",
          scheme: "basic",
          description: "Confidential clients: client_id and client_secret (client_secret_basic; client_secret_post, the same pair as form fields of the body, is accepted too)",
        },

        oauth2: {
          type: "oauth2",
          description: "Authorization code grant with PKCE (S256)",
          flows: {
            authorizationCode: {
              authorizationUrl: `${o.origin}/oauth/authorize`,
              tokenUrl: `${o.origin}/api/oauth/token`,
              refreshUrl: `${o.origin}/api/oauth/token`,
              scopes: {
                openid: "Sign in; required for UserInfo",
                profile: "Name and picture",
                email: "Email address",
                "courses:read": "Read courses",
                "students:read": "Read students",
                "subscriptions:read": "Read your subscriptions (staff: the school's)",
                "subscriptions:write": "Staff: create, update and cancel subscriptions",
                "enrollments:write": "Staff: enroll students in courses",
                "webhooks:manage": "Staff: manage webhook endpoints and deliveries",
              },
            },
          },
        },
      },
    },
  };
}
