import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { isDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { CORS_HEADERS, mcpResource, preflight, resourceMetadataUrl } from "./http";
import { MCP_SERVER_INFO } from "./server-info";
import { requestContext } from "../tenancy/request-context";

// MCP Server Card (SEP-2127, the experimental-ext-server-card schema): what a client needs before
// it connects to this school's /mcp (identity, transport, protocol versions). Tools are not listed:
// tools/list answers them live. Served at /.well-known/mcp/server-card.json of each school origin.

export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";

/** The card's reverse-DNS name: the origin's host labels reversed, then the server (`localhost.demo/schoolhouse`). */
function cardName(origin: string): string {
  const host = new URL(origin).hostname.replace(/[^a-zA-Z0-9.-]/g, "-");
  return `${host.split(".").reverse().join(".")}/${MCP_SERVER_INFO.name}`;
}

const bounded = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function serverCard(origin: string, schoolName: string) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(origin),
    version: MCP_SERVER_INFO.version,
    title: bounded(`${schoolName} (Schoolhouse)`, 100) || MCP_SERVER_INFO.title,
    description: "An online school's catalog, members' own data, and staff tools for subscriptions and webhooks.",
    websiteUrl: origin,
    remotes: [
      {
        type: "streamable-http",
        url: mcpResource(origin),
        supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
        headers: [
          {
            name: "Authorization",
            description: `Bearer and an OAuth access token for ${mcpResource(origin)} (authorization server in ${resourceMetadataUrl(origin)}), or a school's Admin API key`,
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ],
  };
}

/** GET /.well-known/mcp/server-card.json: this origin's card; 404 where no school is served. */
export async function handleServerCardRequest(request: Request): Promise<Response> {
  if (request.method === "OPTIONS") return preflight("GET, OPTIONS");
  const context = requestContext(request);
  let school;
  try {
    school = await context.school();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return Response.json(
      { error: "temporarily_unavailable", error_description: "The service's database is unavailable; retry shortly." },
      { status: 503, headers: { ...CORS_HEADERS, ...retryAfterHeaders(), "cache-control": "no-store" } },
    );
  }
  if (!school) return Response.json({ error: "not_found", error_description: "No school is served at this address." }, { status: 404, headers: CORS_HEADERS });
  // The card's own media type when the client asks for it (the extension's discovery rules), JSON otherwise.
  const type = request.headers.get("accept")?.toLowerCase().includes(SERVER_CARD_MEDIA_TYPE) ? SERVER_CARD_MEDIA_TYPE : "application/json";
  return new Response(JSON.stringify(serverCard(context.origin, school.name)), {
    headers: {
      ...CORS_HEADERS,
      "content-type": `${type}; charset=utf-8`,
      "cache-control": "public, max-age=300",
      vary: "Accept, Host, X-Forwarded-Host, X-Forwarded-Proto",
    },
  });
}
