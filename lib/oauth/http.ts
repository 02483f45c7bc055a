import { retryAfterHeaders } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText } from "../http/body";
import { asOAuthError, InvalidRequestError, type OAuthError, PayloadTooLargeError, TemporarilyUnavailableError } from "./errors";

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

/** Every OAuth body (forms, registration JSON, the consent form): 16 KiB is far above any real one. */
export const MAX_OAUTH_BODY_BYTES = 16 * 1024;

/**
 * The body as UTF-8 text within MAX_OAUTH_BODY_BYTES, read while it streams: 413 as soon as it is
 * larger (without reading the rest), 400 when it is not UTF-8. `error` shapes the 400 in the
 * endpoint's own error class (registration uses invalid_client_metadata).
 */
export async function readOAuthBody(request: Request, error: (message: string) => OAuthError = (m) => new InvalidRequestError(m)): Promise<string> {
  try {
    return await readBodyText(request, MAX_OAUTH_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new PayloadTooLargeError(err.message);
    if (err instanceof BodyEncodingError) throw error(err.message);
    throw err;
  }
}

/** Refuses parameters holding U+0000 before any of them reaches a query (Postgres text cannot store it). */
export function refuseNul(params: Iterable<[string, string]>): void {
  for (const [key, value] of params) {
    if (hasNul(key) || hasNul(value)) throw new InvalidRequestError(`Parameter ${hasNul(key) ? "names" : key} must not contain the NUL character`);
  }
}

/** An application/x-www-form-urlencoded body, where every parameter appears at most once (RFC 6749 §3.2). */
export async function readForm(request: Request): Promise<Map<string, string>> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new InvalidRequestError("The request body must be application/x-www-form-urlencoded");
  }
  const params = new URLSearchParams(await readOAuthBody(request));
  refuseNul(params);
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
