import { retryAfterHeaders } from "../db/unavailable";
import { asOAuthError, InvalidRequestError, TemporarilyUnavailableError } from "./errors";

// Browser-based clients (SPAs, MCP inspectors) call these endpoints cross-origin. They carry no
// cookies, so any origin may call them; credentials stay in bodies and Authorization headers.
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "access-control-expose-headers": "WWW-Authenticate",
  "access-control-max-age": "600",
};

export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string>; cache?: "no-store" | string } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": init.cache ?? "no-store",
      pragma: "no-cache",
      ...CORS_HEADERS,
      ...init.headers,
    },
  });
}

/** The JSON answer of an OAuth error (a database outage is temporarily_unavailable); anything else is rethrown. */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  const oauth = asOAuthError(error);
  if (!oauth) throw error;
  const extra = oauth instanceof TemporarilyUnavailableError ? retryAfterHeaders() : {};
  return jsonResponse(oauth.toJSON(), { status: oauth.status, headers: { ...extra, ...headers } });
}

/** Runs an endpoint and maps OAuth errors to their JSON answer; anything else is a real bug. */
export async function handleOAuth(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return errorResponse(error);
  }
}

const MAX_FORM_BYTES = 16 * 1024;

/** An application/x-www-form-urlencoded body, where every parameter appears at most once (RFC 6749 §3.2). */
export async function readForm(request: Request): Promise<Map<string, string>> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new InvalidRequestError("The request body must be application/x-www-form-urlencoded");
  }
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) throw new InvalidRequestError("The request body is too large");
  const params = new URLSearchParams(text);
  const out = new Map<string, string>();
  for (const [key, value] of params) {
    if (out.has(key)) throw new InvalidRequestError(`Parameter ${key} was given more than once`);
    out.set(key, value);
  }
  return out;
}

/** Credentials a client may also send as HTTP Basic; we only support client_secret_post, so Basic is refused clearly. */
export function refuseBasicAuth(request: Request): void {
  if (/^basic\s/i.test(request.headers.get("authorization") ?? "")) {
    throw new InvalidRequestError("client_secret_basic is not supported; send client_id and client_secret in the body");
  }
}
