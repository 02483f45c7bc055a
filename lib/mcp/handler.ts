import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { now as clockNow } from "../clock";
import { credentialKey } from "../credentials/credential";
import { withDbCancellation, withDbLane } from "../db/lane";
import { adminRateLimiter, budgetHeaders } from "../rate-limit";
import type { OperationType } from "../rate-limit/types";
import { isDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, jsonProblem, jsonProblemMessage, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { isToolName, MCP_SCOPES, TOOL_ACCESS } from "./access";
import { authenticateMcp, McpAuthError, type McpCaller } from "./authenticate";
import { bearerChallenge, CORS_HEADERS, JSONRPC, jsonRpcError, mcpResource, preflight } from "./http";
import { authInfoOf, type McpContext } from "./context";
import { directToolCall } from "./direct-call";
import { refuseUnknownTools } from "./unknown-tools";
import { acquireMcpServer, directMcpTransport, releaseMcpServer } from "./server-pool";
import { requestAuditFacts, requestContext } from "../tenancy/request-context";

/** Largest JSON-RPC message accepted (tool arguments are small; catalog text goes out, not in). */
export const MAX_BODY_BYTES = 1024 * 1024;

type Peeked = { id: string | number | null; method: string | null; tool: string | null; dryRun: boolean; parsed?: unknown };

/** What the limiter and the scope check need to know before the SDK parses the message itself. */
function peek(text: string): Peeked {
  const none: Peeked = { id: null, method: null, tool: null, dryRun: false };
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return none;
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) return { ...none, parsed: msg };
  const m = msg as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: { dry_run?: unknown } } };
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  const method = typeof m.method === "string" ? m.method : null;
  const params = m.params && typeof m.params === "object" ? m.params : undefined;
  const tool = method === "tools/call" && typeof params?.name === "string" ? params.name : null;
  const dryRun = params?.arguments && typeof params.arguments === "object" ? params.arguments.dry_run === true : false;
  return { id, method, tool, dryRun, parsed: msg };
}

function authErrorResponse(err: McpAuthError, origin: string): Response {
  // 401: ask for every scope /mcp can use; 403: the scopes held plus the one missing (step-up).
  const scope = err.status === 401 ? MCP_SCOPES.join(" ") : err.scope;
  return jsonRpcError({
    status: err.status,
    code: JSONRPC.unauthorized,
    message: err.message,
    headers: { "www-authenticate": bearerChallenge({ origin, error: err.error, description: err.message, scope }) },
  });
}

export interface McpHandlerOptions {
  /** Answer a plain tools/call POST without the SDK's HTTP transport (lib/mcp/direct-call.ts); default true. */
  directPath?: boolean;
}

/**
 * POST /mcp: CORS → school from the host → credential (401/403 with RFC 9728 challenges) → scope of
 * the tool called (403 insufficient_scope) → limits per grant or API key → the SDK's stateless
 * Streamable HTTP transport with JSON responses, or for a plain tools/call the same server's
 * tools/call handler directly (lib/mcp/direct-call.ts). GET and DELETE are 405: no sessions, no
 * streams. Failures outside the SDK are JSON-RPC errors; nothing answers 500.
 */
export function createMcpHandler(options: McpHandlerOptions = {}): (request: Request) => Promise<Response> {
  const directPath = options.directPath ?? true;
  return (request) => answer(request, directPath);
}

export const handleMcpRequest = createMcpHandler();

async function answer(request: Request, directPath: boolean): Promise<Response> {
  if (request.method === "OPTIONS") return preflight("POST, GET, DELETE, OPTIONS");
  try {
    const context = requestContext(request);
    const school = await context.school();
    if (!school) return jsonRpcError({ status: 404, code: JSONRPC.notFound, message: "No school is served at this address." });
    const { origin } = context;
    const now = clockNow();

    let caller: McpCaller;
    try {
      caller = await authenticateMcp({ headers: request.headers, schoolId: school.id, issuer: origin, resource: mcpResource(origin), now });
    } catch (err) {
      if (err instanceof McpAuthError) return authErrorResponse(err, origin);
      throw err;
    }
    if (request.method !== "POST") {
      return jsonRpcError({
        status: 405,
        code: JSONRPC.methodNotAllowed,
        message: "This MCP server is stateless: send each JSON-RPC message with POST (no sessions, no server-sent event stream).",
        headers: { allow: "POST, OPTIONS" },
      });
    }

    let text: string;
    try {
      text = await readBodyText(request, MAX_BODY_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return jsonRpcError({ status: 413, code: -32600, message: err.message, headers: { ...REFUSED_BODY_HEADERS } });
      if (err instanceof BodyEncodingError) return jsonRpcError({ status: 400, code: -32700, message: err.message });
      throw err;
    }
    const peeked = peek(text);
    // Nesting is bounded before the SDK's schemas and the idempotency fingerprint recurse over the
    // message (lib/http/body.ts); NUL is left to the tools' own input checks as before.
    if (jsonProblem(peeked.parsed, { allowNul: true }) === "too_deep") return jsonRpcError({ status: 400, code: -32600, id: peeked.id, message: jsonProblemMessage("too_deep") });
    const access = isToolName(peeked.tool) ? TOOL_ACCESS[peeked.tool] : null;
    if (access?.scope && caller.kind === "member" && !caller.scopes.has(access.scope)) {
      const wanted = [...new Set([...caller.scopes, access.scope])].join(" ");
      return authErrorResponse(new McpAuthError(403, "insufficient_scope", `${peeked.tool} needs the ${access.scope} scope.`, wanted), origin);
    }
    const operationType: OperationType = access?.writes && !peeked.dryRun ? "mutations" : "queries";

    const direct = directPath ? directToolCall(request.headers, peeked.parsed) : null;
    const ctx: McpContext = { caller, school, origin, now: clockNow, request: requestAuditFacts(request) };
    // A pooled server (lib/mcp/server-pool.ts): the caller travels with the message (authInfo),
    // never in the server.
    const shape = { origin, schoolName: school.name };

    const executeDirectly = async (): Promise<Answer> => {
      const body = await (await directMcpTransport(shape)).call(direct!, authInfoOf(ctx));
      return { status: 200, headers: DIRECT_HEADERS, body, outage: ctx.outage === true };
    };

    // The SDK's transport. The body was parsed once above; unparsable JSON goes to the SDK as
    // text, for its own parse error.
    const execute = async (): Promise<Answer> => {
      const server = acquireMcpServer(shape);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      let finished = false;
      try {
        await server.connect(transport);
        refuseUnknownTools(transport, isToolName);
        const authInfo = authInfoOf(ctx);
        const response =
          peeked.parsed === undefined
            ? await transport.handleRequest(new Request(request.url, { method: "POST", headers: request.headers, body: text }), { authInfo })
            : await transport.handleRequest(request, { authInfo, parsedBody: peeked.parsed });
        // Read the whole answer inside the limiter, so execution time is measured to the last byte.
        const body = response.status === 202 ? null : await response.text();
        finished = true;
        return { status: response.status, headers: response.headers, body, outage: ctx.outage === true };
      } finally {
        await server.close();
        // Only a server that answered everything goes back: none of its handlers is still running.
        if (finished) releaseMcpServer(shape, server);
      }
    };
    // The tool's database work shares connections fairly per credential (lib/db/fair-gate.ts) and
    // stops at the time limit or when the client leaves.
    const lane = credentialKey(caller.credential);
    const outcome = await adminRateLimiter().run({ credential: caller.credential, operationType, signal: request.signal }, (signal) =>
      withDbLane(lane, () => withDbCancellation(signal, direct ? executeDirectly : execute)),
    );

    switch (outcome.outcome) {
      case "completed": {
        if (outcome.value.outage) return unavailable(peeked.id, true);
        const extra = { ...budgetHeaders(outcome.state), ...CORS_HEADERS, "cache-control": "no-store" };
        const { headers: answered } = outcome.value;
        if (!(answered instanceof Headers)) return new Response(outcome.value.body, { status: outcome.value.status, headers: { ...answered, ...extra } });
        const headers = new Headers(answered);
        for (const [k, v] of Object.entries(extra)) headers.set(k, v);
        return new Response(outcome.value.body, { status: outcome.value.status, headers });
      }
      case "refused":
        return jsonRpcError({
          status: 429,
          code: JSONRPC.rateLimited,
          id: peeked.id,
          message: outcome.error.message,
          data: outcome.error.toJSON().extensions,
          headers: { ...budgetHeaders(outcome.state), ...outcome.error.headers(), ...CORS_HEADERS },
        });
      case "failed":
        if (!isDatabaseUnavailable(outcome.error)) console.error("mcp: request failed", outcome.error);
        return unavailable(peeked.id, isDatabaseUnavailable(outcome.error));
      default:
        return unavailable(peeked.id);
    }
  } catch (err) {
    const outage = isDatabaseUnavailable(err);
    if (!outage) console.error("mcp: request failed", err);
    return unavailable(null, outage);
  }
}

/** What a request's execution hands back to be sent once the limiter has finished with it. */
interface Answer {
  status: number;
  /** The transport's headers, or (direct path) the same header as the transport sets, lowercased. */
  headers: Headers | Readonly<Record<string, string>>;
  body: string | null;
  outage: boolean;
}

/** What the transport sets on a JSON answer (stateless: no Mcp-Session-Id). */
const DIRECT_HEADERS: Readonly<Record<string, string>> = { "content-type": "application/json" };

/** 503 in JSON-RPC form: a database outage with its Retry-After (lib/db/unavailable), else a short retry. */
const unavailable = (id: string | number | null, outage = false) =>
  jsonRpcError({
    status: 503,
    code: JSONRPC.unavailable,
    id,
    message: outage ? "The school's database is unavailable right now; retry shortly." : "The service is temporarily unavailable; retry shortly.",
    headers: outage ? retryAfterHeaders() : { "retry-after": "1" },
  });
