import { MCP_SCOPES } from "./access";
import { CORS_HEADERS, mcpResource, preflight } from "./http";
import { requestContext } from "../tenancy/request-context";

/** RFC 9728 metadata of this school's /mcp: the resource, its authorization server (this origin), its scopes. */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResource(origin),
    authorization_servers: [origin],
    scopes_supported: MCP_SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "Schoolhouse MCP server",
    resource_documentation: `${origin}/oauth/docs`,
  };
}

/** GET /.well-known/oauth-protected-resource[/mcp]: the root form names the same, only, resource. */
export async function handleResourceMetadataRequest(request: Request): Promise<Response> {
  if (request.method === "OPTIONS") return preflight("GET, OPTIONS");
  const context = requestContext(request);
  const school = await context.school();
  if (!school) return Response.json({ error: "not_found", error_description: "No school is served at this address." }, { status: 404, headers: CORS_HEADERS });
  return Response.json(protectedResourceMetadata(context.origin), {
    headers: { ...CORS_HEADERS, "cache-control": "public, max-age=300", vary: "Host, X-Forwarded-Host, X-Forwarded-Proto" },
  });
}
