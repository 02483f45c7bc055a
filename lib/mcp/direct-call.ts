import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { isToolName, type ToolName } from "./access";

// The common /mcp request, one tools/call in a plain JSON POST, answered without the SDK's HTTP
// transport (docs/benchmarks.md, issue 15, 15mcp3). The transport's round trip (connect, a
// Request/Response pair, its zod parses of the JSON-RPC envelope, reading the answer back, close)
// cost more CPU than the tool. The message still goes to the very handler the SDK's Protocol would
// call for it (the server's registered tools/call handler), so every check after the envelope
// runs unchanged: the tools/call request schema, the tool's input schema, our role and permission
// check, the output schema, the result schema. Everything the transport could refuse or treat
// differently (headers it checks, batches, notifications, _meta, tasks, unknown tools, odd ids)
// is not taken here and goes to the transport. tests/integration/mcp/direct-path.test.ts sends the
// same generated requests both ways and compares status, headers and body.

export interface DirectToolCall {
  /** The message exactly as the transport's envelope schema would pass it on (it is strict: no other keys). */
  message: JSONRPCRequest & { method: "tools/call"; params: { name: ToolName; arguments?: Record<string, unknown> } };
}

/** Media types taken directly; any other Content-Type (the transport parses it, or answers 415) goes to the transport. */
const JSON_CONTENT_TYPES = new Set(["application/json", "application/json; charset=utf-8"]);
const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]) => Object.keys(o).every((k) => allowed.includes(k));

/**
 * The tools/call this POST carries when it is the plain case the direct path answers, else null.
 * Each condition is one the transport checks (or a shape it would treat otherwise): a request
 * passing all of them passes the transport's checks, and the transport would hand the handler an
 * equal message.
 */
export function directToolCall(headers: Headers, parsed: unknown): DirectToolCall | null {
  // The transport's own tests: Accept lists both (substring, as the transport checks), JSON
  // Content-Type, a protocol version header it supports (or none). Session ids are ignored by a
  // stateless transport.
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return null;
  const contentType = headers.get("content-type");
  if (contentType === null || !JSON_CONTENT_TYPES.has(contentType.toLowerCase())) return null;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_VERSIONS.has(version)) return null;

  // One JSON-RPC request (not a batch, not a notification) of exactly the envelope's keys.
  if (!isObject(parsed) || !onlyKeys(parsed, ["jsonrpc", "id", "method", "params"])) return null;
  const { jsonrpc, id, method, params } = parsed;
  if (jsonrpc !== "2.0" || method !== "tools/call") return null;
  // The envelope's id: a string or a (safe) integer.
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return null;
  // A tool of ours with arguments as an object or none; no _meta (progress tokens, related tasks), no task.
  if (!isObject(params) || !onlyKeys(params, ["name", "arguments"]) || !isToolName(params.name)) return null;
  if (params.arguments !== undefined && !isObject(params.arguments)) return null;
  return { message: parsed as unknown as DirectToolCall["message"] };
}

type RequestHandler = (request: JSONRPCRequest, extra: Record<string, unknown>) => Promise<unknown>;

/**
 * The handler the SDK's Protocol calls for a tools/call message: the server's own chain (request
 * schema, then McpServer's lookup, input schema, tool, output schema, then the result schema). It
 * is kept in a private map of the SDK's Protocol; its absence (an SDK change) fails loudly.
 */
function sdkRequestHandlers(server: McpServer): Map<string, RequestHandler> {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!handlers?.get("tools/call")) throw new Error("mcp: the SDK server has no tools/call handler where the direct path expects it");
  return handlers;
}

function toolsCallHandler(server: McpServer): RequestHandler {
  return sdkRequestHandlers(server).get("tools/call")!;
}

/**
 * MCP's tools spec: an unknown tool is a protocol error (JSON-RPC -32602), not a tool result. The
 * SDK's McpServer catches its own "Tool … not found" and answers it as a result with isError, so
 * the name is checked before its handler runs. Both the transport and the direct path (which never
 * takes an unknown tool) call this one handler. Malformed params (no string name) are left to the
 * SDK's request schema, which refuses them with -32602 itself.
 */
export function refuseUnknownTools(server: McpServer, isKnown: (name: string) => boolean): void {
  const handlers = sdkRequestHandlers(server);
  const handler = handlers.get("tools/call")!;
  handlers.set("tools/call", async (request, extra) => {
    const name = (request.params as { name?: unknown } | undefined)?.name;
    // Not an McpError: its message would carry an "MCP error -32602: " prefix on the wire.
    if (typeof name === "string" && !isKnown(name)) throw Object.assign(new Error(`Unknown tool: ${name}`), { code: ErrorCode.InvalidParams });
    return handler(request, extra);
  });
}

const noRequests = async () => {
  // Nothing of ours asks the client anything (no sampling, no elicitation); in the SDK's JSON
  // response mode such a request could never be answered either.
  throw new McpError(ErrorCode.InternalError, "This server does not send requests to the client.");
};

/**
 * Runs the call through the server's tools/call handler and returns the JSON-RPC response body
 * the transport would send: `{ result, jsonrpc, id }`, or the error object Protocol builds from a
 * thrown error.
 */
export async function answerToolCall(server: McpServer, call: DirectToolCall, authInfo: AuthInfo, signal: AbortSignal): Promise<string> {
  const { message } = call;
  // What Protocol gives a handler; our tools read only authInfo (lib/mcp/context.ts). A notification
  // in JSON response mode goes nowhere (the transport writes only SSE), so dropping it is the same.
  const extra = {
    signal,
    sessionId: undefined,
    _meta: undefined,
    authInfo,
    requestId: message.id,
    sendNotification: async () => {},
    sendRequest: noRequests,
  };
  try {
    const result = await toolsCallHandler(server)(message, extra);
    return JSON.stringify({ result, jsonrpc: "2.0", id: message.id });
  } catch (error) {
    const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
    return JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError,
        message: e.message ?? "Internal error",
        ...(e.data !== undefined && { data: e.data }),
      },
    });
  }
}
