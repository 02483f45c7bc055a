import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isToolName, type ToolName } from "./access";

// The common /mcp request, one tools/call in a plain JSON POST, answered without the SDK's HTTP
// transport (docs/benchmarks.md, 15mcp3). The HTTP transport's round trip (a Request/Response
// pair, its zod parses of the JSON-RPC envelope, reading the answer back) cost more CPU than the
// tool. The message still goes through the SDK's Protocol, by a minimal transport of the SDK's own
// Transport interface, so every check after the envelope runs unchanged: the tools/call request
// schema, the tool's input schema, our role and permission check, the output schema, the result
// schema. Everything the transport could refuse or treat
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

/**
 * The SDK's Transport interface (its documented way to carry messages to a server) for one
 * request: the message goes in through `onmessage` as the HTTP transport would hand it over (with
 * the request's authInfo), and the response the server's Protocol sends back is the answer.
 * Notifications the tool sends go nowhere, as in the HTTP transport's JSON response mode.
 */
class OneCallTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  readonly answer: Promise<JSONRPCMessage>;
  private settle!: (message: JSONRPCMessage) => void;

  constructor(private readonly id: RequestId) {
    this.answer = new Promise((resolve) => (this.settle = resolve));
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Protocol sends only responses and notifications here; a response carries the request's id.
    if ("id" in message && message.id === this.id && ("result" in message || "error" in message)) this.settle(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/**
 * Runs the call through the server (its Protocol: request schema, McpServer's lookup, input schema,
 * tool, output schema, result schema) and returns the JSON-RPC response body the HTTP transport
 * would send: `{ result, jsonrpc, id }`, or the error object Protocol builds from a thrown error.
 * The server is closed again before this returns, so it can go back to the pool.
 */
export async function answerToolCall(server: McpServer, call: DirectToolCall, authInfo: AuthInfo): Promise<string> {
  const transport = new OneCallTransport(call.message.id);
  await server.connect(transport);
  try {
    transport.onmessage!(call.message, { authInfo });
    const answer = await transport.answer;
    // Protocol forgets the request's AbortController in a .finally a few microtasks after it sent
    // the answer. Closing before that aborts it (Protocol aborts what is still in flight on close),
    // which cost a DOMException with its stack trace on every call; one macrotask turn lets the
    // chain finish first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return JSON.stringify(answer);
  } finally {
    await server.close();
  }
}
