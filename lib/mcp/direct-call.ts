import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isToolName, type ToolName } from "./access";

// The common /mcp request, one tools/call in a plain JSON POST, answered without the SDK's HTTP
// transport (docs/benchmarks.md, 15mcp3). The HTTP transport's round trip (a Request/Response
// pair, its zod parses of the JSON-RPC envelope, reading the answer back) cost more CPU than the
// tool. The message still goes through the SDK's Protocol, by a transport of the SDK's own
// Transport interface (DirectTransport, which stays connected to its server), so every check after
// the envelope runs unchanged: the tools/call request schema, the tool's input schema, our role and
// permission check, the output schema, the result schema. Everything the transport could refuse or
// treat differently (headers it checks, batches, notifications, _meta, tasks, unknown tools, odd
// ids) is not taken here and goes to the transport. tests/integration/mcp/direct-path.test.ts sends
// the same generated requests both ways and compares status, headers and body.

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
 * The SDK's Transport interface (its documented way to carry messages to a server), carrying any
 * number of calls at once for a server that stays connected to it: each message goes in through
 * `onmessage` as the HTTP transport would hand it over (with its request's authInfo), under an id
 * of the transport's own, so calls of different clients that chose the same JSON-RPC id never meet
 * in Protocol's per-request state; the response Protocol sends back is that call's answer, with
 * the caller's id put back in its place. Notifications a tool sends go nowhere, as in the HTTP
 * transport's JSON response mode. No tool reads the JSON-RPC id (the audit's request id is the HTTP
 * request's, lib/mcp/context.ts).
 *
 * Connecting and closing a server per call cost about 5% of a call: Protocol's close builds a
 * "Connection closed" McpError (with its stack trace) every time, and aborted the call's
 * AbortController when the close came before the SDK's own clean-up.
 */
export class DirectTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private lastId = 0;
  private readonly waiting = new Map<number, { id: RequestId; settle: (message: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Protocol sends only responses and notifications here; a response carries its request's id.
    if (!("id" in message) || typeof message.id !== "number" || !("result" in message || "error" in message)) return;
    const call = this.waiting.get(message.id);
    if (!call) return;
    this.waiting.delete(message.id);
    call.settle({ ...message, id: call.id });
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Calls in flight (tests: none is left behind). */
  get inFlight(): number {
    return this.waiting.size;
  }

  /**
   * Runs the call through the server (its Protocol: request schema, McpServer's lookup, input
   * schema, tool, output schema, result schema) and returns the JSON-RPC response body the HTTP
   * transport would send: `{ result, jsonrpc, id }`, or the error object Protocol builds from a
   * thrown error.
   */
  async call(call: DirectToolCall, authInfo: AuthInfo): Promise<string> {
    if (!this.onmessage) throw new Error("DirectTransport: no server is connected");
    const id = ++this.lastId;
    const answer = new Promise<JSONRPCMessage>((settle) => this.waiting.set(id, { id: call.message.id, settle }));
    this.onmessage({ ...call.message, id }, { authInfo });
    return JSON.stringify(await answer);
  }
}

/** A server connected for good to a DirectTransport of its own: the direct path's caller. */
export async function connectDirect(server: McpServer): Promise<DirectTransport> {
  const transport = new DirectTransport();
  await server.connect(transport);
  return transport;
}
