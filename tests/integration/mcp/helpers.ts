import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { hashSecret } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import type { AppServer } from "../../helpers/app-server";
import { tokensFor } from "../oauth/helpers";

export const ALL_SCOPES = "openid profile email courses:read students:read subscriptions:read subscriptions:write enrollments:write webhooks:manage";

/** An access token for demo-public-app, issued for `resource` (default: this app's /mcp) at `schoolId`. */
export async function mcpToken(app: AppServer, cookie: string, o: { schoolId: string; scope?: string; resource?: string | null }): Promise<string> {
  const resource = o.resource === undefined ? `${app.url}/mcp` : (o.resource ?? undefined);
  const t = await tokensFor(app, cookie, { scope: o.scope ?? ALL_SCOPES, resource, school_id: o.schoolId });
  return t.access_token;
}

export async function grantIdOf(token: string): Promise<string> {
  const row = await db().oAuthAccessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) } });
  return row.grantId;
}

/** The official MCP client, connected over Streamable HTTP with a bearer credential. */
export async function mcpClient(app: AppServer, bearer: string): Promise<Client> {
  const client = new Client({ name: "schoolhouse-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } });
  await client.connect(transport);
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/**
 * The prose rendering of a successful result: its second text block, after the JSON of
 * structuredContent (checked here on every call that uses it).
 */
export function prose(r: CallToolResult): string {
  const [json, second] = r.content;
  if (json?.type !== "text" || JSON.stringify(JSON.parse(json.text)) !== JSON.stringify(r.structuredContent)) throw new Error("the first block is not structuredContent's JSON");
  return second?.type === "text" ? second.text : "";
}

/** A raw JSON-RPC POST to /mcp, for refusals the SDK client turns into exceptions. */
export function rpc(app: AppServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return app.fetch("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const toolCall = (name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
