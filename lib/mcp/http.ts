import { EXPOSED_HEADERS } from "../rate-limit/wire";

// Wire plumbing of /mcp: CORS for browser-based MCP clients (bearer tokens, never cookies, so any
// origin may call), RFC 6750 challenges, and JSON-RPC error bodies for refusals outside the SDK.

export const MCP_PATH = "/mcp";
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

export const mcpResource = (origin: string) => origin + MCP_PATH;
export const resourceMetadataUrl = (origin: string) => origin + RESOURCE_METADATA_PATH + MCP_PATH;

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": `WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, ${EXPOSED_HEADERS}`,
};

export function preflight(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": methods,
      "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
      "Access-Control-Max-Age": "600",
    },
  });
}

const quoted = (s: string) => s.replace(/[\\"]/g, "").replace(/[^\x20-\x7e]/g, "");

/** `Bearer resource_metadata="…"` plus error, description and scope when known. */
export function bearerChallenge(o: { origin: string; error?: string | null; description?: string; scope?: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(o.origin)}"`];
  if (o.error) parts.push(`error="${o.error}"`);
  if (o.error && o.description) parts.push(`error_description="${quoted(o.description)}"`);
  if (o.scope) parts.push(`scope="${o.scope}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** JSON-RPC error codes used outside the SDK (JSON-RPC 2.0 reserves -32000..-32099 for servers). */
export const JSONRPC = { unauthorized: -32001, rateLimited: -32002, unavailable: -32003, notFound: -32004, methodNotAllowed: -32005 } as const;

export function jsonRpcError(o: {
  status: number;
  code: number;
  message: string;
  id?: string | number | null;
  data?: unknown;
  headers?: Record<string, string>;
}): Response {
  const body = { jsonrpc: "2.0", id: o.id ?? null, error: { code: o.code, message: o.message, ...(o.data === undefined ? {} : { data: o.data }) } };
  return Response.json(body, { status: o.status, headers: { "cache-control": "no-store", ...CORS_HEADERS, ...o.headers } });
}
