import { retryAfterHeaders } from "../db/unavailable";
import { asOAuthError, InvalidClientError, InvalidRequestError, TemporarilyUnavailableError } from "./errors";

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

/**
 * The client's credentials: HTTP Basic (client_secret_basic, RFC 6749 §2.3.1: client_id and secret
 * form-urlencoded, then base64) or the body (client_secret_post, or client_id alone for public
 * clients). Using both methods in one request is refused (§2.3: only one may be used).
 */
export function clientCredentials(request: Request, form: Map<string, string>): { clientId: string | undefined; clientSecret: string | undefined } {
  const header = request.headers.get("authorization") ?? "";
  if (!/^basic\s/i.test(header)) return { clientId: form.get("client_id"), clientSecret: form.get("client_secret") };
  if (form.has("client_secret")) throw new InvalidRequestError("Use one client authentication method: HTTP Basic or client_secret in the body, not both");
  let decoded: string;
  try {
    decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  } catch {
    decoded = "";
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new InvalidClientError("Malformed HTTP Basic credentials");
  const decode = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, " "));
    } catch {
      throw new InvalidClientError("Malformed HTTP Basic credentials");
    }
  };
  const clientId = decode(decoded.slice(0, colon));
  const bodyId = form.get("client_id");
  if (bodyId !== undefined && bodyId !== clientId) throw new InvalidRequestError("client_id in the body does not match the HTTP Basic credentials");
  return { clientId, clientSecret: decode(decoded.slice(colon + 1)) };
}
